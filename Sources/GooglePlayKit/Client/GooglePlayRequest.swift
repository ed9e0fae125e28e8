import Foundation

/// One call of googleplay.md's table: method, path after the application prefix, query, body.
public struct GooglePlayRequest: Sendable, Equatable {
    public var name: String
    public var method: String
    /// After `/androidpublisher/v3/applications/{packageName}/`.
    public var path: String
    public var query: [(String, String)]
    public var body: Data?

    public static func == (a: GooglePlayRequest, b: GooglePlayRequest) -> Bool {
        a.name == b.name && a.method == b.method && a.path == b.path && a.body == b.body
            && a.query.map { [$0.0, $0.1] } == b.query.map { [$0.0, $0.1] }
    }

    /// Path segments carry tokens and ids Google made (letters, digits, `.`, `-`, `_`), escaped
    /// all the same: a token is outside input. Only ASCII unreserved bytes (RFC 3986 §2.3) pass,
    /// and a segment of dots alone is escaped whole, so it can never be read as `.` or `..`
    /// (RFC 3986 §5.2.4).
    static func segment(_ text: String) -> String {
        let dotsOnly = !text.isEmpty && text.utf8.allSatisfy { $0 == 46 }
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case 48...57, 65...90, 97...122, 45, 95, 126: out.append(Character(UnicodeScalar(byte)))
            case 46 where !dotsOnly: out.append(".")
            default: out += "%" + String(byte, radix: 16, uppercase: true).leftPadded
            }
        }
        return out
    }

    func url(base: URL, packageName: String) -> URL? {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += "/androidpublisher/v3/applications/\(Self.segment(packageName))/\(path)"
        if !query.isEmpty {
            text += "?" + query.map { "\(Self.segment($0.0))=\(Self.segment($0.1))" }.joined(separator: "&")
        }
        return URL(string: text)
    }

    public static func subscription(token: String) -> GooglePlayRequest {
        GooglePlayRequest(name: "subscriptionsv2.get", method: "GET", path: "purchases/subscriptionsv2/tokens/\(segment(token))",
                          query: [], body: nil)
    }

    public static func product(productId: String, token: String) -> GooglePlayRequest {
        GooglePlayRequest(name: "products.get", method: "GET",
                          path: "purchases/products/\(segment(productId))/tokens/\(segment(token))", query: [], body: nil)
    }

    public static func order(_ orderId: String) -> GooglePlayRequest {
        GooglePlayRequest(name: "orders.get", method: "GET", path: "orders/\(segment(orderId))", query: [], body: nil)
    }

    /// googleplay.md: 1–1000 distinct ids.
    public static let maximumBatchOrders = 1000

    public static func orders(_ orderIds: [String]) -> GooglePlayRequest {
        GooglePlayRequest(name: "orders.batchget", method: "GET", path: "orders:batchGet",
                          query: orderIds.map { ("orderIds", $0) }, body: nil)
    }

    /// `subscriptions.acknowledge` or `products.acknowledge` (E28); the body is empty JSON.
    public static func acknowledge(subscription: Bool, productId: String, token: String) -> GooglePlayRequest {
        let kind = subscription ? "subscriptions" : "products"
        return GooglePlayRequest(name: "\(kind).acknowledge", method: "POST",
                                 path: "purchases/\(kind)/\(segment(productId))/tokens/\(segment(token)):acknowledge",
                                 query: [], body: Data("{}".utf8))
    }

    /// `type=1`: subscriptions too (googleplay.md; the default 0 lists one-time purchases only).
    public static func voidedPurchases(startMillis: Int64, endMillis: Int64, pageToken: String?) -> GooglePlayRequest {
        var query = [("type", "1"), ("startTime", String(startMillis)), ("endTime", String(endMillis)), ("maxResults", "1000")]
        if let pageToken { query.append(("token", pageToken)) }
        return GooglePlayRequest(name: "voidedpurchases.list", method: "GET", path: "purchases/voidedpurchases", query: query,
                                 body: nil)
    }
}

private extension String {
    /// Two hex digits.
    var leftPadded: String { count == 1 ? "0" + self : self }
}
