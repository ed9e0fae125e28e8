/// Where a handler runs.
enum Execution: Sendable {
    /// On the connection's event loop: for handlers that never block (memory lookups, HMAC).
    case inline
    /// On the bounded worker pool: for handlers that may block (SQLite writes, calls to Apple).
    /// The response is handed back to the connection's loop, in order with its other responses.
    case worker
}

typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse
