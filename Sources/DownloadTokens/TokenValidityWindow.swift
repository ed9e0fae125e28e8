import IssueCatalog
import Wire

/// tokens.md step 4, the time part: `nbf - leeway <= now < exp + leeway` and `iat <= now + leeway`
/// (a token is never dated in the future: with a future `iat`, a key holder could mint one that
/// passes the lifetime bound and still lives for days).
///
/// Arithmetic is in whole seconds and saturates, so a hostile `exp` of `Int64.max` cannot wrap
/// around. Comparing against the floor of `now` is exact: both bounds are whole seconds.
public enum TokenValidityWindow {
    /// `notBefore` and `issuedAt` are optional for JWTs in general (RFC 7519 §4.1.5, §4.1.6);
    /// download tokens always carry both.
    public static func check(notBefore: Int64?, issuedAt: Int64? = nil, expiresAt: Int64, now: Instant,
                             leewaySeconds: Int64) throws(TokenFailure) {
        let nowSeconds = now.secondsSinceEpoch
        if let notBefore, nowSeconds < notBefore.subtractingSaturated(leewaySeconds) { throw .notYetValid }
        if let issuedAt, nowSeconds < issuedAt.subtractingSaturated(leewaySeconds) { throw .issuedInFuture }
        guard nowSeconds < expiresAt.addingSaturated(leewaySeconds) else { throw .expired }
    }

    /// `exp - iat` at most `maxLifetime`; a difference that overflows is too long.
    public static func checkLifetime(issuedAt: Int64, expiresAt: Int64, maxLifetimeSeconds: Int64)
        throws(TokenFailure) {
        let (lifetime, overflow) = expiresAt.subtractingReportingOverflow(issuedAt)
        guard !overflow, lifetime <= maxLifetimeSeconds else { throw .lifetimeTooLong }
    }
}

extension Int64 {
    func addingSaturated(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    func subtractingSaturated(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other > 0 ? .min : .max) : difference
    }
}
