import IssueCatalog
import Wire

/// The verification of tokens.md, in its order. Each check throws its own `TokenFailure`.
public struct TokenVerifier: Sendable {
    public let keys: TokenKeySet
    public let policy: TokenPolicy

    public init(keys: TokenKeySet, policy: TokenPolicy = .standard) {
        self.keys = keys
        self.policy = policy
    }

    /// Steps 1–4: the token is well-formed, signed by a configured key and current.
    ///
    /// Leeway: 30 s both ways (`TokenPolicy.leewaySeconds`), so an edge whose clock runs a
    /// little behind the gateway's still takes a token just issued; the price is that a token
    /// stays usable up to 30 s past `exp`. `iss` is not compared:
    /// tokens.md lists no such check, and edges that use any JWT library will not make one.
    public func verify(_ token: String, now: Instant) throws(TokenFailure) -> VerifiedDownloadToken {
        let verified = try verifyIgnoringTime(token)
        try verified.checkTime(now: now, policy: policy)
        return verified
    }

    /// Steps 1–4 except the time window: what never changes for a given token and key set, so
    /// the answer may be remembered (`VerifiedTokenMemo`) while the window is checked per request.
    public func verifyIgnoringTime(_ token: String) throws(TokenFailure) -> VerifiedDownloadToken {
        let jws = try CompactJWS(parsing: token, policy: policy)                    // 1
        let key = try JOSEHeaderCheck.key(for: jws.headerObject(policy: policy), in: keys) // 2
        guard jws.hasValidHS256Signature(key: key) else { throw .signature }          // 3
        let claims = try DownloadTokenClaims(validating: jws.payloadObject(policy: policy),
                                             audience: policy.audience)             // 4
        try TokenValidityWindow.checkLifetime(issuedAt: claims.issuedAt, expiresAt: claims.expiresAt,
                                              maxLifetimeSeconds: policy.maxLifetimeSeconds)
        return VerifiedDownloadToken(kid: key.kid, claims: claims)
    }

    /// `verify` through a memo of tokens already verified (steps 1–4 but the time window).
    public func verify(_ token: String, now: Instant, memo: (any VerifiedTokenMemo)?) throws(TokenFailure)
        -> VerifiedDownloadToken {
        guard let memo else { return try verify(token, now: now) }
        let verified: VerifiedDownloadToken
        if let known = memo.verified(token) {
            verified = known
        } else {
            verified = try verifyIgnoringTime(token)
            memo.remember(token, verified)
        }
        try verified.checkTime(now: now, policy: policy)
        return verified
    }

    /// Steps 1–5 for one request: `requestTarget` is the path and query (`X-Original-URI`).
    public func authorize(_ token: String, requestTarget: String, method: String?, now: Instant)
        throws(TokenFailure) -> VerifiedDownloadToken {
        let verified = try verify(token, now: now)
        try verified.authorize(requestTarget: requestTarget, method: method)     // 5
        return verified
    }
}
