import CCrypto

/// MD5 (RFC 1321) through libcrypto's `EVP_Digest`. Only for nginx's `secure_link_md5`, whose
/// check is fixed by nginx (tokens.md, nginx `secure_link`); never for the gateway's own secrets.
public enum MD5Digest {
    public static func hash(_ message: some Sequence<UInt8>) throws(CryptoError) -> [UInt8] {
        try MessageDigest.md5.hash(message)
    }
}
