#include <string.h>
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
#include <openssl/param_build.h>

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

// An RSA public key from its JWK members (RFC 7518 §6.3.1: `n` and `e`, big-endian unsigned), for
// RS256 verification against a JWKS. NULL when libcrypto refuses the numbers.
static inline EVP_PKEY *ccrypto_rsa_public_key(const unsigned char *n, size_t n_length,
                                               const unsigned char *e, size_t e_length) {
    BIGNUM *bn_n = BN_bin2bn(n, (int)n_length, NULL);
    BIGNUM *bn_e = BN_bin2bn(e, (int)e_length, NULL);
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = NULL;
    EVP_PKEY *key = NULL;
    if (bn_n == NULL || bn_e == NULL || builder == NULL) goto done;
    if (OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, bn_n) != 1
        || OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, bn_e) != 1) goto done;
    params = OSSL_PARAM_BLD_to_param(builder);
    if (params == NULL) goto done;
    ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
    if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) != 1) goto done;
    if (EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_PUBLIC_KEY, params) != 1) key = NULL;
done:
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(builder);
    BN_free(bn_n);
    BN_free(bn_e);
    return key;
}

// An EC P-256 public key from its JWK members (RFC 7518 §6.2.1: `x` and `y`, 32 bytes each), for
// ES256 verification against a JWKS: the uncompressed point 0x04‖x‖y (SEC 1 §2.3.3). NULL when
// libcrypto refuses the point (not on the curve).
static inline EVP_PKEY *ccrypto_p256_public_key(const unsigned char *x, const unsigned char *y) {
    unsigned char point[65];
    point[0] = 0x04;
    memcpy(point + 1, x, 32);
    memcpy(point + 33, y, 32);
    OSSL_PARAM params[3];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)"prime256v1", 0);
    params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point);
    params[2] = OSSL_PARAM_construct_end();
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    EVP_PKEY *key = NULL;
    if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) != 1 || EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_PUBLIC_KEY, params) != 1) key = NULL;
    EVP_PKEY_CTX_free(ctx);
    if (key != NULL) {
        // fromdata does not check the point lies on the curve; a public-key check does.
        EVP_PKEY_CTX *check = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
        int ok = check != NULL && EVP_PKEY_public_check(check) == 1;
        EVP_PKEY_CTX_free(check);
        if (!ok) { EVP_PKEY_free(key); key = NULL; }
    }
    return key;
}
