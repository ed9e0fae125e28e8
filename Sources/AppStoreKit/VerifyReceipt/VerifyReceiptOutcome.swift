import Entitle
import Foundation

/// The two verifyReceipt endpoints.
public enum VerifyReceiptEndpoint: String, Sendable, Equatable {
    case production, sandbox

    var environment: StoreEnvironment { self == .production ? .production : .sandbox }
}

/// What a receipt verification came to: the outcome table of appstore.md "verifyReceipt".
public enum VerifyReceiptOutcome: Sendable, Equatable {
    /// Status 0 or 21006: `body` is Apple's whole answer, for `AppStoreParsers`.
    case valid(body: Data, environment: StoreEnvironment)
    /// 21000, 21002, 21003, 21010 or any status the table does not name: 422 `receipt_rejected`.
    case rejected(status: Int)
    /// 21004: the shared secret is wrong. 503, and logged loudly: only an operator can fix it.
    case misconfigured(status: Int)
    /// Apple could not give an answer within the retry budget: 503 `app_store_unavailable`.
    case unavailable(reason: VerifyReceiptUnavailableReason)
}

public enum VerifyReceiptUnavailableReason: Sendable, Equatable {
    /// The last answer was a retryable status (21005, 21009, 21100–21199, `is-retryable`).
    case retryableStatus(Int)
    case timedOut
    case transport(String)
    /// An HTTP status other than 200 (Apple always answers 200 with a JSON status).
    case httpStatus(Int)
    case malformedResponse(String)
    case responseTooLarge(limit: Int)
    /// 21007/21008 kept bouncing between the endpoints.
    case environmentLoop
}
