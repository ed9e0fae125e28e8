/// What a route decides from a request's head alone, before the server reads its body
/// (`RouterBuilder.add(authorizeHead:)`): for routes whose bodies are large (spooled to disk), so
/// that a request its credentials cannot authorize is refused before a byte of its body is kept.
public enum HeadDecision: Sendable {
    /// Read the body; the handler decides as usual.
    case proceed
    /// Answer this now, read no body, and close the connection (the unread body cannot be skipped
    /// safely, RFC 9112 §9.6).
    case refuse(HTTPResponse)
    /// The decision needs blocking work (a credential looked up in a store): the server runs it on
    /// the route's worker pool while it reads nothing more from the connection; nil proceeds, a
    /// response refuses as `refuse` does. A full pool is answered as a busy one.
    case decideOnPool(@Sendable () -> HTTPResponse?)
}

/// Runs on the event loop with the request's head (an empty body, its path parameters matched):
/// it must not block.
public typealias HTTPHeadCheck = @Sendable (HTTPRequest) -> HeadDecision
