import Foundation
import IssueCatalog
import Wire

/// One Server API call, before it is addressed to an environment (appstore.md, the endpoint
/// table). Path segments taken from outside (transaction ids) are percent-encoded here.
public struct ServerAPIRequest: Sendable, Equatable {
    public var method: String
    /// Percent-encoded, starting with `/inApps`.
    public var path: String
    public var query: [QueryItem]
    public var body: Data?
    /// Names the endpoint in metrics and errors (`history`, `statuses`, …).
    public var name: String

    public struct QueryItem: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    /// The full URL under `base` (whose own path, if any, is kept as a prefix).
    public func url(base: URL) -> URL? {
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false)
        let prefix = components?.percentEncodedPath ?? ""
        components?.percentEncodedPath = (prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix) + path
        if !query.isEmpty {
            components?.percentEncodedQuery = query.map { "\(Self.encode($0.name))=\(Self.encode($0.value))" }
                .joined(separator: "&")
        }
        return components?.url
    }

    private static let unreserved = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// RFC 3986 §2.3: everything but unreserved characters is escaped, `/` and `?` included.
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    // MARK: Endpoints

    /// Transaction history v2, one page; resend with the previous page's `revision`.
    public static func transactionHistory(_ transactionId: String, revision: String?) -> ServerAPIRequest {
        ServerAPIRequest(method: "GET", path: "/inApps/v2/history/" + encode(transactionId),
                         query: revision.map { [QueryItem(name: "revision", value: $0)] } ?? [], body: nil, name: "history")
    }

    public static func subscriptionStatuses(_ transactionId: String) -> ServerAPIRequest {
        ServerAPIRequest(method: "GET", path: "/inApps/v1/subscriptions/" + encode(transactionId), query: [], body: nil,
                         name: "statuses")
    }

    public static func transactionInfo(_ transactionId: String) -> ServerAPIRequest {
        ServerAPIRequest(method: "GET", path: "/inApps/v1/transactions/" + encode(transactionId), query: [], body: nil,
                         name: "transaction")
    }

    /// Notification history, one page: `{startDate, endDate, notificationType?, transactionId?,
    /// onlyFailures?}` in ms; the next page is asked with the previous page's token.
    public static func notificationHistory(_ query: ServerAPINotificationQuery, paginationToken: String?) -> ServerAPIRequest {
        var w = JSONWriter(capacity: 128)
        w.object { w in
            w.field("startDate", Int(query.start.millisecondsSinceEpoch))
            w.field("endDate", Int(query.end.millisecondsSinceEpoch))
            if let type = query.notificationType { w.field("notificationType", type) }
            if let transactionId = query.transactionId { w.field("transactionId", transactionId) }
            if query.onlyFailures { w.field("onlyFailures", true) }
        }
        return ServerAPIRequest(method: "POST", path: "/inApps/v1/notifications/history",
                                query: paginationToken.map { [QueryItem(name: "paginationToken", value: $0)] } ?? [],
                                body: Data(w.bytes), name: "notificationHistory")
    }

    public static let testNotification = ServerAPIRequest(method: "POST", path: "/inApps/v1/notifications/test", query: [],
                                                          body: nil, name: "testNotification")

    /// Refund history v2, one page.
    public static func refundHistory(_ transactionId: String, revision: String?) -> ServerAPIRequest {
        ServerAPIRequest(method: "GET", path: "/inApps/v2/refund/lookup/" + encode(transactionId),
                         query: revision.map { [QueryItem(name: "revision", value: $0)] } ?? [], body: nil, name: "refunds")
    }

    /// Extends one subscription's renewal date (at most 90 days, reason 0–3; Apple allows two a year).
    public static func extendRenewalDate(_ originalTransactionId: String, _ extension: ServerAPIExtension) -> ServerAPIRequest {
        var w = JSONWriter(capacity: 128)
        w.object { w in
            w.field("extendByDays", `extension`.days)
            w.field("extendReasonCode", `extension`.reasonCode)
            w.field("requestIdentifier", `extension`.requestIdentifier)
        }
        return ServerAPIRequest(method: "PUT", path: "/inApps/v1/subscriptions/extend/" + encode(originalTransactionId),
                                query: [], body: Data(w.bytes), name: "extend")
    }
}

/// The filters of a notification history request.
public struct ServerAPINotificationQuery: Sendable, Equatable {
    public var start: Instant
    public var end: Instant
    public var notificationType: String?
    public var transactionId: String?
    public var onlyFailures: Bool

    public init(start: Instant, end: Instant, notificationType: String? = nil, transactionId: String? = nil,
                onlyFailures: Bool = false) {
        self.start = start; self.end = end; self.notificationType = notificationType
        self.transactionId = transactionId; self.onlyFailures = onlyFailures
    }
}

/// A renewal date extension (appstore.md "Extend a renewal date").
public struct ServerAPIExtension: Sendable, Equatable {
    public static let maximumDays = 90
    public static let reasonCodes = 0...3

    public var days: Int
    public var reasonCode: Int
    /// Apple deduplicates on it: a retried request extends once.
    public var requestIdentifier: String

    public init(days: Int, reasonCode: Int, requestIdentifier: String) {
        self.days = days; self.reasonCode = reasonCode; self.requestIdentifier = requestIdentifier
    }
}
