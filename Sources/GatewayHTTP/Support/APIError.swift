import GatewayCore
import HTTPServer
import Wire

/// A domain error as the API answers it (http-api.md, Conventions): its status, the spec's error
/// code, header fields and the fields the error shape adds. The one mapping from `GatewayError`
/// to HTTP: no other place knows an error's status or code.
package struct APIError: Sendable {
    package let status: Int
    package let code: String
    package let message: String
    package let extra: [(String, JSONScalar)]
    /// Fields beside `extra` that are not scalars (E34's `sessions`), in order after them.
    package let structured: [(String, JSONValue)]
    /// Header fields the answer carries besides the body (`Retry-After`).
    package let headers: [(String, String)]

    package init(_ error: GatewayError) {
        message = error.message
        headers = error.retryAfterSeconds.map { [("Retry-After", String($0))] } ?? []
        (status, code, extra) = Self.statusCodeAndFields(of: error)
        structured = Self.structuredFields(of: error)
    }

    /// readers.md, Decisions: extra error fields sit inside the `error` object beside `code`.
    private static func structuredFields(of error: GatewayError) -> [(String, JSONValue)] {
        switch error {
        case .deviceLimit(let sessions, let current):
            [("sessions", .array(sessions.map { SessionJSON.value($0, current: current) }))]
        default: []
        }
    }

    private static func statusCodeAndFields(of error: GatewayError) -> (Int, String, [(String, JSONScalar)]) {
        switch error {
        case .invalid: (400, "bad_request", [])
        case .invalidNetwork(let entry, _): (400, "invalid_network", [("network", .string(entry))])
        case .unauthorized: (401, "unauthorized", [])
        case .invalidIDToken(let reason): (401, "invalid_id_token", [("reason", .string(reason))])
        case .forbidden: (403, "forbidden", [])
        case .notEntitled(_, let reason): (403, "not_entitled", [("reason", .string(reason))])
        case .notInInstitution: (403, "not_in_institution", [])
        case .notFound: (404, "not_found", [])
        case .codeNotFound: (404, "code_not_found", [])
        case .subscriberNotFound: (404, "subscriber_not_found", [])
        case .purchaseNotFound: (404, "purchase_not_found", [])
        case .conflict: (409, "conflict", [])
        case .notPublished: (409, "not_published", [])
        case .ownedByOtherAccount: (409, "owned_by_other_account", [])
        case .accountMerged(let into): (404, "account_merged", [("mergedInto", .string(into))])
        case .linkCodeNotFound: (404, "link_code_not_found", [])
        case .deviceLimit: (409, "device_limit", [])
        case .identityInUse: (409, "identity_in_use", [])
        case .lastIdentity: (409, "last_identity", [])
        case .appAccountTokenInUse: (409, "app_account_token_in_use", [])
        case .notConfigured: (409, "not_configured", [])
        case .purchaseExpired: (410, "purchase_expired", [])
        case .tooLarge: (413, "payload_too_large", [])
        case .unsupportedFormat: (415, "unsupported_media_type", [])
        case .receiptRejected(_, let appStoreStatus):
            (422, "receipt_rejected", appStoreStatus.map { [("appStoreStatus", .int($0))] } ?? [])
        case .rateLimited: (429, "rate_limited", [])
        case .storageFailed, .failed: (500, "internal_error", [])
        case .appStoreRefused(_, let errorCode):
            (502, "app_store_refused", errorCode.map { [("appStoreErrorCode", .int($0))] } ?? [])
        case .appStoreUnavailable: (503, "app_store_unavailable", [])
        case .storeUnavailable: (503, "store_unavailable", [])
        case .providerUnavailable: (503, "provider_unavailable", [])
        case .storageBusy, .listInProgress: (503, "storage_busy", [])
        case .storageUnreachable: (503, "storage_unavailable", [])
        }
    }

    /// The error as an answer in the spec's shape, with its header fields. Every 429 and 503
    /// carries `Retry-After` (http-api.md): the wait the error names, else the fallback, clamped
    /// here so that no error path can forget it or send a wait out of range.
    package var response: HTTPResponse {
        var response = HTTPResponse.error(status, code: code, message: message, extra: extra, structured: structured)
        response.headers += headers
        return response.withRetryAfter()
    }
}

extension GatewayError {
    /// The error as the API answers it.
    package var response: HTTPResponse { APIError(self).response }
}
