/// What the access log and the request counters say of a request, kept from its head until its
/// response is written.
struct RequestSummary: Sendable {
    var method: String
    var path: String
    /// The matched route pattern, or `unmatched`.
    var route: String
    /// Kept only when there is an access log to write it.
    var userAgent: String?

    /// A request refused before it could be read (`-` as in common log format).
    static let unread = RequestSummary(method: "-", path: "-", route: RequestStats.unmatchedRoute, userAgent: nil)
}
