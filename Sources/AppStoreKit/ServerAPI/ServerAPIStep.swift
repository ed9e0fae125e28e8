import Entitle
import Foundation
import IssueCatalog
import OutboundHTTP
import Wire

/// What one Server API answer leads to: the client's loop is a state machine over these, so
/// retries and environment fallback are tested without a network (like `VerifyReceiptStep`).
public enum ServerAPIStep: Equatable, Sendable {
    case success(Data)
    /// Production does not know the transaction (4040010), or answers an app never released
    /// there with a bare 401: ask the sandbox. When the call was pinned to production, the
    /// answer means `otherwise` (`.notFound`, or `.unauthorized`: a bare 401 is also Apple's
    /// answer to a bad token).
    case tryOtherEnvironment(otherwise: ServerAPIFailure)
    case retry(ServerAPIRetryReason)
    case failure(ServerAPIFailure)

    /// Apple's error codes worth another try (appstore.md "Errors").
    static let retryableErrorCodes: Set<Int> = [5000001, 4040002, 4040004, 4040006]
    static let transactionIdNotFound = 4040010
    /// A JSON error body is small; a larger one is not read for its code.
    static let errorBodyLimits = JSONLimits(maxBytes: 64 * 1024, maxDepth: 4)

    public init(answer: HTTPExchangeResult, environment: StoreEnvironment) {
        let status = answer.statusCode
        if (200...299).contains(status) {
            self = .success(answer.body)
            return
        }
        let code = Self.errorCode(answer.body)
        switch status {
        case 401:
            self = environment == .production && answer.body.isEmpty
                ? .tryOtherEnvironment(otherwise: .unauthorized) : .failure(.unauthorized)
        case 429:
            self = .retry(.rateLimited(retryAfter: Self.retryAfter(answer.headers["retry-after"])))
        case _ where code == Self.transactionIdNotFound:
            self = environment == .production ? .tryOtherEnvironment(otherwise: .notFound) : .failure(.notFound)
        case _ where code.map(Self.retryableErrorCodes.contains) == true:
            self = .retry(.retryableError(code!))
        case 500...599:
            self = .retry(.httpStatus(status))
        default:
            self = .failure(.rejected(httpStatus: status, errorCode: code))
        }
    }

    /// `errorCode` of `{"errorCode": …, "errorMessage": …}`, if the body is that.
    static func errorCode(_ body: Data) -> Int? {
        guard !body.isEmpty, let object = try? JSONParser(limits: errorBodyLimits).parse(bytes: Array(body)).objectValue,
              let code = object["errorCode"]?.integerValue else { return nil }
        return Int(clamping: code)
    }

    /// `Retry-After` as Apple sends it: a UNIX time in milliseconds (appstore.md). Anything else
    /// (seconds, an HTTP date) is ignored and the client's own backoff applies.
    static func retryAfter(_ value: String?) -> Instant? {
        guard let value, let milliseconds = Int64(value.trimmingCharacters(in: .whitespaces)), milliseconds > 0 else { return nil }
        return Instant(millisecondsSinceEpoch: milliseconds)
    }
}

/// One request, reported to the client's observer (metrics, logs).
public struct ServerAPIAttempt: Sendable, Equatable {
    public let endpoint: String
    public let environment: StoreEnvironment
    public let step: ServerAPIStep
}
