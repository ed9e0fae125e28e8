import IssueCatalog
import Wire

/// A token that passed steps 1–4: genuine, current, well-formed. Step 5 (`authorizes`) says
/// whether it covers a particular request.
public struct VerifiedDownloadToken: Equatable, Sendable {
    /// The key that verified it (for logs and rotation metrics).
    public let kid: String
    public let claims: DownloadTokenClaims

    public init(kid: String, claims: DownloadTokenClaims) { self.kid = kid; self.claims = claims }

    /// Step 4's time window, `nbf - leeway <= now < exp + leeway` and `iat <= now + leeway`,
    /// checked on every request (a memoised token too).
    public func checkTime(now: Instant, policy: TokenPolicy) throws(TokenFailure) {
        try TokenValidityWindow.check(notBefore: claims.notBefore, issuedAt: claims.issuedAt, expiresAt: claims.expiresAt,
                                      now: now, leewaySeconds: policy.leewaySeconds)
    }

    /// Step 5: the request target's path (query ignored), percent-decoded once and refused if
    /// unsafe, equals one of `paths`; the method is GET or HEAD.
    ///
    /// `method` nil means the edge did not send `X-Original-Method` (http-api.md makes it
    /// optional); nginx's `auth_request` only guards what it proxies, so GET is assumed. Method
    /// names are case-sensitive (RFC 9110 §9.1): `get` is refused. A wrong method is 403, like
    /// a wrong path: the bearer is authenticated, the request is what is not allowed.
    public func authorize(requestTarget: String, method: String?) throws(TokenFailure) {
        let path = try RequestPath.decode(requestTarget: requestTarget)
        guard claims.paths.contains(where: { $0.utf8.elementsEqual(path) }) else { throw .pathNotGranted }
        guard RequestPath.allowedMethods.contains(method ?? "GET") else { throw .method }
    }
}
