import Foundation

/// The one error every call of ``IssueGatewayClient`` throws.
///
/// For an answer of the gateway it carries the API's error `code`, `message`, the HTTP `status`,
/// any extra fields of the error object (`reason`, `sessions`, `mergedInto`, `appStoreStatus`…)
/// and the `Retry-After` wait. Failures before any answer (no network, no session) have a
/// client-side ``Code`` and no status.
///
/// ```swift
/// do { access = try await client.downloadAccess(publication: "monthly", issue: "2026-03") }
/// catch where error.code == .notEntitled { showPaywall(reason: error.reason) }
/// ```
public struct IssueGatewayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The error's code: the API's `error.code`, or a client-side one.
    public var code: Code
    /// The API's human sentence, or the client's.
    public var message: String
    /// The HTTP status of the answer; `nil` when no answer was received or it is the client's own.
    public var status: Int?
    /// Seconds to wait before trying again, from `Retry-After` (every 429 and 503 carries it).
    public var retryAfter: TimeInterval?
    /// The error object's fields beside `code` and `message`.
    public var details: [String: JSONValue]

    /// Makes an error.
    public init(code: Code, message: String, status: Int? = nil, retryAfter: TimeInterval? = nil,
                details: [String: JSONValue] = [:]) {
        self.code = code
        self.message = message
        self.status = status
        self.retryAfter = retryAfter
        self.details = details
    }

    /// `reason` of `not_entitled` (an ``IssueReason`` such as `notSubscribedWhenPublished`) or of
    /// `invalid_id_token` (`nonce`, `expired`, …).
    public var reason: String? { details["reason"]?.stringValue }

    /// The account a merged account's id now names (`account_merged`).
    public var mergedInto: String? { details["mergedInto"]?.stringValue }

    /// The App Store's status for `receipt_rejected` (21003, …).
    public var appStoreStatus: Int? { details["appStoreStatus"]?.numberValue.map { Int($0) } }

    /// The live sessions of an account at its device limit (`device_limit`): the ones the reader
    /// may choose to end.
    public var liveSessions: [SessionInfo] {
        guard let sessions = details["sessions"],
              let data = try? WireCoding.encoder().encode(sessions) else { return [] }
        return (try? WireCoding.decoder().decode([SessionInfo].self, from: data)) ?? []
    }

    /// The code, the status when there is one, and the message.
    public var description: String {
        let status = status.map { " (\($0))" } ?? ""
        return "\(code.rawValue)\(status): \(message)"
    }

    static func noSession() -> IssueGatewayError {
        IssueGatewayError(code: .noSession,
                          message: "there is no session: call continueAnonymously(), signIn or redeemLinkCode first")
    }

    static func network(_ error: any Error) -> IssueGatewayError {
        IssueGatewayError(code: .network, message: "the gateway could not be reached: \(error.localizedDescription)")
    }

    static func malformed(_ what: String) -> IssueGatewayError {
        IssueGatewayError(code: .malformedResponse, message: "the gateway's answer could not be read: \(what)")
    }

    static func sessionStore(_ error: any Error) -> IssueGatewayError {
        IssueGatewayError(code: .sessionStore, message: "the session store failed: \(error)")
    }
}

extension IssueGatewayError {
    /// Error codes: the API's (http-api.md and readers.md), then the client's own, which start
    /// with `client.` so that they never meet one of the API's. A code this client does not know
    /// is kept as ``unrecognized(_:)``.
    public enum Code: OpenEnumeration {
        /// 400: a malformed request.
        case badRequest
        /// 401: the secret is missing or unknown (the session has ended).
        case unauthorized
        /// 403: the secret is known but not allowed here.
        case forbidden
        /// 404.
        case notFound
        /// 409.
        case conflict
        /// 413.
        case payloadTooLarge
        /// 422: the App Store refused the receipt (``IssueGatewayError/appStoreStatus``).
        case receiptRejected
        /// 403: the account may not download the issue (``IssueGatewayError/reason``).
        case notEntitled
        /// 409: the purchase belongs to another account and the gateway keeps it there.
        case ownedByOtherAccount
        /// 503: the App Store cannot be reached now.
        case appStoreUnavailable
        /// 503: Google Play or Stripe cannot be reached now.
        case storeUnavailable
        /// 503: the gateway's storage is busy.
        case storageBusy
        /// 429: too many tries; wait ``IssueGatewayError/retryAfter``.
        case rateLimited
        /// 404: unknown, used or expired access code.
        case codeNotFound
        /// 409: the appAccountToken already names another account.
        case appAccountTokenInUse
        /// 404: Google does not know the purchase token.
        case purchaseNotFound
        /// 410: Google no longer keeps the purchase.
        case purchaseExpired
        /// 401: the ID token failed verification (``IssueGatewayError/reason``).
        case invalidIdToken
        /// 404: unknown, used or expired link code.
        case linkCodeNotFound
        /// 409: the account has as many sessions as it may (``IssueGatewayError/liveSessions``).
        case deviceLimit
        /// 404: the account was merged (``IssueGatewayError/mergedInto``).
        case accountMerged
        /// 409: the identity belongs to another account.
        case identityInUse
        /// 409: the only identity cannot be removed.
        case lastIdentity
        /// 409: the gateway has no identity providers.
        case notConfigured
        /// 503: the identity provider's keys cannot be fetched now.
        case providerUnavailable
        /// Client: there is no session yet.
        case noSession
        /// Client: no answer arrived (no connection, a timeout, cancellation).
        case network
        /// Client: the answer was not what the API says.
        case malformedResponse
        /// Client: the CDN refused a file even with a new download token.
        case downloadRefused
        /// Client: the ``SessionStore`` failed to load, save or clear.
        case sessionStore
        /// Client: a downloaded file could not be put in its folder.
        case fileSystem
        /// Client: the app's ID-token closure threw (the reader cancelled the provider's sheet).
        case idTokenUnavailable
        /// A code this version of the client does not know.
        case unrecognized(String)

        private static let known: [Code] = [
            .badRequest, .unauthorized, .forbidden, .notFound, .conflict, .payloadTooLarge, .receiptRejected, .notEntitled,
            .ownedByOtherAccount, .appStoreUnavailable, .storeUnavailable, .storageBusy, .rateLimited, .codeNotFound,
            .appAccountTokenInUse, .purchaseNotFound, .purchaseExpired, .invalidIdToken, .linkCodeNotFound, .deviceLimit,
            .accountMerged, .identityInUse, .lastIdentity, .notConfigured, .providerUnavailable, .noSession, .network,
            .malformedResponse, .downloadRefused, .sessionStore, .fileSystem, .idTokenUnavailable,
        ]

        /// The code named `rawValue`.
        public init(rawValue: String) {
            self = Self.known.first { $0.rawValue == rawValue } ?? .unrecognized(rawValue)
        }

        /// The code as the API (or the client, `client.…`) spells it.
        public var rawValue: String {
            switch self {
            case .badRequest: "bad_request"
            case .unauthorized: "unauthorized"
            case .forbidden: "forbidden"
            case .notFound: "not_found"
            case .conflict: "conflict"
            case .payloadTooLarge: "payload_too_large"
            case .receiptRejected: "receipt_rejected"
            case .notEntitled: "not_entitled"
            case .ownedByOtherAccount: "owned_by_other_account"
            case .appStoreUnavailable: "app_store_unavailable"
            case .storeUnavailable: "store_unavailable"
            case .storageBusy: "storage_busy"
            case .rateLimited: "rate_limited"
            case .codeNotFound: "code_not_found"
            case .appAccountTokenInUse: "app_account_token_in_use"
            case .purchaseNotFound: "purchase_not_found"
            case .purchaseExpired: "purchase_expired"
            case .invalidIdToken: "invalid_id_token"
            case .linkCodeNotFound: "link_code_not_found"
            case .deviceLimit: "device_limit"
            case .accountMerged: "account_merged"
            case .identityInUse: "identity_in_use"
            case .lastIdentity: "last_identity"
            case .notConfigured: "not_configured"
            case .providerUnavailable: "provider_unavailable"
            case .noSession: "client.no_session"
            case .network: "client.network"
            case .malformedResponse: "client.malformed_response"
            case .downloadRefused: "client.download_refused"
            case .sessionStore: "client.session_store"
            case .fileSystem: "client.file_system"
            case .idTokenUnavailable: "client.id_token_unavailable"
            case .unrecognized(let code): code
            }
        }
    }
}
