import Wire

/// tokens.md step 2 after the JSON: which key verifies this token, or why none may.
enum JOSEHeaderCheck {
    static let algorithm = "HS256"
    /// Parameters that would let the token choose its own key or demand extensions
    /// (RFC 7515 §4.1.2–4.1.6, §4.1.11; RFC 8725 §3.1, §3.10).
    static let forbiddenParameters = ["jku", "jwk", "x5u", "x5c", "crit"]

    /// `alg` exactly `HS256` (never `none`, `HS512`, `RS256`, …: RFC 8725 §3.1); none of the
    /// forbidden parameters; `typ` absent or `JWT` (RFC 7519 §5.1, compared case-insensitively);
    /// `kid` a string that is a key of the set.
    static func key(for header: JSONObject, in keys: TokenKeySet) throws(TokenFailure) -> TokenKey {
        guard header["alg"]?.stringValue == algorithm else { throw .algorithm }
        guard !forbiddenParameters.contains(where: header.contains) else { throw .forbiddenHeader }
        if let typ = header["typ"] {
            guard typ.stringValue?.lowercased() == "jwt" else { throw .tokenType }
        }
        guard let kid = header["kid"]?.stringValue else { throw .missingKid }
        guard let key = keys.key(for: kid) else { throw .unknownKid }
        return key
    }
}
