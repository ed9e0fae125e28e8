#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <openssl/rand.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/asn1.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/cms.h>

// HMAC-SHA-256 with the key schedule done once per key (tokens.md step 3 runs on every edge
// request): `ccrypto_hmac_sha256_prepare` keys a context, `ccrypto_hmac_sha256_with` copies it per
// message, so no lookup or key setup happens on the hot path.
static inline EVP_MAC_CTX *ccrypto_hmac_sha256_prepare(const unsigned char *key, size_t key_length) {
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    if (mac == NULL) return NULL;
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
    EVP_MAC_free(mac);
    if (ctx == NULL) return NULL;
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0);
    params[1] = OSSL_PARAM_construct_end();
    if (EVP_MAC_init(ctx, key, key_length, params) != 1) { EVP_MAC_CTX_free(ctx); return NULL; }
    return ctx;
}

static inline int ccrypto_hmac_sha256_with(const EVP_MAC_CTX *prepared, const unsigned char *data, size_t length,
                                           unsigned char out[32]) {
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_dup(prepared);
    if (ctx == NULL) return 0;
    size_t written = 0;
    int ok = EVP_MAC_update(ctx, data, length) == 1 && EVP_MAC_final(ctx, out, &written, 32) == 1 && written == 32;
    EVP_MAC_CTX_free(ctx);
    return ok;
}
