import GatewayStore
import Wire

/// An answer that is not a success, in the spec's error shape (http-api.md, Conventions).
/// Handlers throw it; `APIHandler` turns it into a response. An error never changes stored state.
package struct APIError: Error, Sendable {
    package var status: Int
    package var code: String
    package var message: String
    package var extra: [(String, JSONScalar)] = []
    /// Header fields the answer carries besides the body (`Retry-After`).
    package var headers: [(String, String)] = []

    package init(status: Int, code: String, message: String, extra: [(String, JSONScalar)] = [],
                 headers: [(String, String)] = []) {
        self.status = status; self.code = code; self.message = message; self.extra = extra; self.headers = headers
    }

    package static func badRequest(_ message: String) -> APIError { APIError(status: 400, code: "bad_request", message: message) }
    package static func unauthorized(_ message: String = "a valid bearer secret is required") -> APIError {
        APIError(status: 401, code: "unauthorized", message: message)
    }
    package static func forbidden(_ message: String = "this secret is not allowed here") -> APIError {
        APIError(status: 403, code: "forbidden", message: message)
    }
    package static func notFound(_ message: String) -> APIError { APIError(status: 404, code: "not_found", message: message) }
    package static func conflict(_ message: String) -> APIError { APIError(status: 409, code: "conflict", message: message) }
    package static func payloadTooLarge(_ message: String) -> APIError {
        APIError(status: 413, code: "payload_too_large", message: message)
    }
    /// 503 while Apple cannot answer: `retryAfterSeconds` is the wait Apple asked for when it
    /// named one (its 429), else `appStoreRetryAfterSeconds`.
    package static func appStoreUnavailable(_ message: String, retryAfterSeconds: Int? = nil) -> APIError {
        APIError(status: 503, code: "app_store_unavailable", message: message,
                 headers: [("Retry-After", String(retryAfterSeconds ?? appStoreRetryAfterSeconds))])
    }
    /// Apple's outages and retry budgets are seconds long (the clients retry within a deadline
    /// of a few seconds before giving up): asking again sooner would find the same answer.
    package static let appStoreRetryAfterSeconds = 5
    /// 503 `store_unavailable` while Google Play or Stripe cannot answer (or their pool is full):
    /// `retryAfterSeconds` is the wait the store asked for when it named one (its `Retry-After`,
    /// passed on as http-api.md asks), else `storeRetryAfterSeconds`.
    package static func storeUnavailable(_ message: String, retryAfterSeconds: Int? = nil) -> APIError {
        APIError(status: 503, code: "store_unavailable", message: message,
                 headers: [("Retry-After", String(retryAfterSeconds ?? storeRetryAfterSeconds))])
    }
    /// A minute: Stripe and Pub/Sub retry on their own schedules, and a pool full of calls waiting
    /// on a store does not empty sooner.
    package static let storeRetryAfterSeconds = 60
    /// E4 under the `keep` policy: the purchase is another account's (`IngestOutcome.refused`).
    package static let ownedByOtherAccount = APIError(status: 409, code: "owned_by_other_account",
                                                      message: "this purchase belongs to another account")
    package static let storageBusy = APIError(status: 503, code: "storage_busy",
                                      message: "the gateway's database is busy; try again shortly")
    /// `/healthz` while the database cannot be reached.
    package static let storageUnavailable = APIError(status: 503, code: "storage_unavailable",
                                             message: "the gateway's database cannot be reached")
    package static func internalError(_ message: String) -> APIError {
        APIError(status: 500, code: "internal_error", message: message)
    }

    /// 429 (RFC 6585 §4) with `Retry-After` in seconds (RFC 9110 §10.2.3).
    package static func rateLimited(retryAfterSeconds: Int) -> APIError {
        APIError(status: 429, code: "rate_limited", message: "too many requests from this client; try again later",
                 headers: [("Retry-After", String(retryAfterSeconds))])
    }
}

extension APIError {
    /// Store failures as the API states them; storage details stay in the log (`StoreLog`): a
    /// client sees a fixed sentence, and a 503 when trying again may help.
    package init(_ error: StoreError) {
        switch error {
        case .conflict(let m): self = .conflict(m)
        case .notFound(let m): self = .notFound(m)
        case .appAccountTokenInUse:
            self = APIError(status: 409, code: "app_account_token_in_use",
                            message: "another account already holds this appAccountToken")
        case .busy: self = .storageBusy
        case .failed: self = .internalError("the gateway could not read or write its database")
        }
    }
}

/// Runs a store call, turning its failure into the API's answer.
package func stored<T>(_ body: () throws(StoreError) -> T) throws(APIError) -> T {
    do { return try body() } catch { throw APIError(error) }
}
