import Entitle
import IssueCatalog
import Wire

/// Why a Server API call gave no answer (appstore.md "Errors"). The gateway turns these into 404,
/// 502 or 503; none carries Apple's text to a client beyond the error code.
public enum ServerAPIFailure: Error, Equatable, Sendable {
    /// 4040010 (or production's bare 401 followed by the sandbox's 4040010): no such transaction
    /// in any environment tried.
    case notFound
    /// 401 where a token should have been accepted: the key id, issuer id, key or bundle id is
    /// wrong. Only an operator can fix it.
    case unauthorized
    /// Apple refused the request for good (a 4xx other than the above): its status and code.
    case rejected(httpStatus: Int, errorCode: Int?)
    /// Retries and the deadline ran out; the last reason.
    case unavailable(ServerAPIRetryReason)
    case malformedResponse(String)
    case responseTooLarge(limit: Int)
    /// A signed item in the answer failed verification (E2): the answer is not used at all.
    case unverifiable(SignedDataVerificationError)
    /// More pages than `ServerAPIConfiguration.maximumPages`.
    case tooManyPages(limit: Int)
    /// libcrypto could not sign the token.
    case signing
}

/// Why one request is worth another try.
public enum ServerAPIRetryReason: Equatable, Sendable {
    /// 429 / 4290000; `retryAfter` is Apple's `Retry-After` (UNIX ms) when it sent one.
    case rateLimited(retryAfter: Instant?)
    /// 5000001, 4040002, 4040004, 4040006.
    case retryableError(Int)
    case httpStatus(Int)
    case timedOut
    case transport(String)
}
