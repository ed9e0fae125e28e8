/// What becomes of a request once it is routed: the one place where a match turns into an answer
/// (`RequestPipeline.outcome`), so the event loop and `InProcessClient` run fast paths, inline and
/// pool handlers and the server's own answers alike.
public enum RouteOutcome {
    /// Answered without a thread hop: a fast path, an inline handler, or no route (404, 405, 400).
    case answered(HTTPResponse)
    /// `handler` must run on the worker pool `pool`; when its queue is full the answer is
    /// `Router.busy`.
    case runOnPool(WorkerPoolID, HTTPHandler, HTTPRequest)
}

extension Router {
    /// Routes `request` with `match` (the request's one match, `match(method:path:)`).
    public func outcome(of request: HTTPRequest, match: Match) -> RouteOutcome {
        switch match {
        case .notFound:
            return .answered(errors(HTTPServerError(.notFound, "No route for \(request.path).")))
        case .badPath:
            return .answered(errors(HTTPServerError(.badRequest, "The path is not valid percent-encoding.")))
        case .methodNotAllowed(let allowed):
            var response = errors(HTTPServerError(.methodNotAllowed, "\(request.method) is not allowed on \(request.path)."))
            response.headers.append(("Allow", allowed.joined(separator: ", ")))  // RFC 9110 §15.5.6
            return .answered(response)
        case .found(let route, let parameters):
            var request = request
            request.pathParameters = parameters
            var handler = route.handler
            if let fastPath = route.fastPath, let plan = fastPath(&request) {
                switch plan {
                case .answer(let response): return .answered(response)
                case .finishOnPool(let finish): handler = { _ in finish() }
                }
            }
            switch route.execution {
            case .inline: return .answered(handler(request))
            case .pool(let pool): return .runOnPool(pool, handler, request)
            }
        }
    }

    /// The body limit for a request with this match: the route's, else the server's.
    public func bodyLimit(_ match: Match, default limit: Int) -> Int {
        if case .found(let route, _) = match, let routeLimit = route.maxBodyBytes { return routeLimit }
        return limit
    }

    /// Whether a request with this match keeps its body in a file (`Route.spoolsBody`).
    public func spoolsBody(_ match: Match) -> Bool {
        if case .found(let route, _) = match { return route.spoolsBody }
        return false
    }

    /// The route's check of a request's head (`Route.authorizeHead`), with the request as the
    /// route's handler would see it without its body.
    public func headCheck(_ match: Match) -> HTTPHeadCheck? {
        if case .found(let route, _) = match { return route.authorizeHead }
        return nil
    }

    /// The answer when a pool's queue is full.
    public var busy: HTTPResponse {
        errors(HTTPServerError(.busy, "The server is busy; try again."))
    }
}
