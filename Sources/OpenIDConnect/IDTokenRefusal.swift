/// Why an ID token was refused (readers.md E31): the `reason` a client reads beside
/// `invalid_id_token`, one per step of OpenID Connect Core §3.1.3.7 the token failed.
public enum IDTokenRefusal: String, Error, Sendable, Equatable, CaseIterable {
    /// Not a compact JWS, claims that are not JSON, a required claim missing, `sub` not 1–255 characters.
    case malformed
    case algorithm
    /// No `kid`, or none of the provider's keys has it.
    case unknownKey = "unknown_key"
    case signature
    case issuer
    /// `aud` lacks every client id, holds another audience, or `azp` is another client.
    case audience
    case expired
    /// `iat` too old, or `iat`/`nbf` ahead of now beyond the skew.
    case issuedAt = "issued_at"
    case nonce
    /// No provider has this id.
    case provider
}
