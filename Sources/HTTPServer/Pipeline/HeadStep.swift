/// What becomes of a request's head while its body is still to come, from the route's
/// `authorizeHead` (`HeadDecision`) with the pool that must run a blocking decision.
public enum HeadStep {
    /// Read the body and go on to the route's outcome.
    case proceed
    /// Answer this and read no body.
    case refuse(HTTPResponse)
    /// Run `decide` on `pool` before the body is read: nil proceeds, a response refuses; a pool
    /// that cannot take it is answered with `RequestPipeline.busy`.
    case decideOnPool(WorkerPoolID, @Sendable () -> HTTPResponse?)
}

extension RequestPipeline {
    /// The route's decision on `head` (the request without its body). Asked only when a body
    /// follows the head (RFC 9112 §6.3): a request without one has nothing to keep or refuse early,
    /// and its handler decides as usual.
    public func decideHead(_ head: HTTPRequest, _ match: Router.Match) -> HeadStep {
        // `RouterBuilder.add` gives a check only to spooling routes on a pool, so a decision that
        // blocks never runs where the head was read.
        guard let check = router.headCheck(match), case .found(let route, let parameters) = match,
              case .pool(let pool) = route.execution else { return .proceed }
        var head = head
        head.body = []
        head.pathParameters = parameters
        switch check(head) {
        case .proceed: return .proceed
        case .refuse(let response): return .refuse(response)
        case .decideOnPool(let decide): return .decideOnPool(pool, decide)
        }
    }
}
