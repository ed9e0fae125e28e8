/// The steps between a request's parsed head and its answer, in the order both the server and
/// `InProcessClient` run them: the route matched once; body admission (the route's limit); the
/// route's decision on the head while a body follows (`decideHead`); the route's outcome,
/// answered at once or run on a pool; and the finishing of the answer (`finish`). Each step is a
/// pure function of its inputs; the callers only differ in how they wait for a pool (the event
/// loop through its inbox, the in-process client by blocking).
public struct RequestPipeline: Sendable {
    public let router: Router
    /// The body limit of a route that sets none.
    public let maxBodyBytes: Int

    public init(router: Router, maxBodyBytes: Int) {
        self.router = router
        self.maxBodyBytes = maxBodyBytes
    }

    /// The request's one match: its body limit, head check and dispatch all come from it.
    public func match(method: String, path: String) -> Router.Match {
        router.match(method: method, path: path)
    }

    /// The answer when a pool (or the client's share of it) cannot take the work.
    public var busy: HTTPResponse { router.busy }

    /// The route's outcome (`Router.outcome`): a fast path, an inline handler or the server's own
    /// answer at once, or a handler for a pool.
    public func outcome(of request: HTTPRequest, match: Router.Match) -> RouteOutcome {
        router.outcome(of: request, match: match)
    }
}
