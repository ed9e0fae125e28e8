import HTTPServer
import Lifecycle

/// Sends requests to a frozen `Router` without sockets: the route is matched once, the body limit
/// checked, the fast path, inline handler or pool handler run, and the server's own answers
/// rendered, as `HTTPServer` does. For tests about routes; socket-level behaviour (framing,
/// pipelining, timeouts) is the server's tests' business.
public final class InProcessClient: Sendable {
    public let router: Router
    private let maxBodyBytes: Int
    private let pools: WorkerPools

    /// `configuration` gives the body limit and the worker pools (their threads start now and stop
    /// with `shutdown()`); every pool a route names must be sized there, as for the server.
    public init(router: Router, configuration: HTTPServerConfiguration = HTTPServerConfiguration()) {
        self.router = router
        maxBodyBytes = configuration.maxBodyBytes
        pools = WorkerPools(configuration)
        if let missing = pools.unknownPool(in: router) {
            preconditionFailure("no worker pool \(missing) in the configuration")
        }
    }

    /// Stops the worker pools once their queued jobs have run.
    public func shutdown() {
        pools.shutdown()
    }

    /// The response the server would send for this request (its body left out for HEAD); blocks
    /// while a pool handler runs. `sourceAddress` poses as the client's address, as a server
    /// would give it (none by default).
    public func send(_ method: String, _ target: String, headers: [(String, String)] = [],
                     body: [UInt8] = [], sourceAddress: String? = nil) -> HTTPResponse {
        var fields = HTTPHeaders()
        for (name, value) in headers { fields.append(name: name, value: value) }
        let request = HTTPRequest(method: method, target: target, headers: fields, body: body,
                                  sourceAddress: sourceAddress)
        let match = router.match(method: request.method, path: request.path)
        let limit = router.bodyLimit(match, default: maxBodyBytes)
        var response: HTTPResponse
        if body.count > limit {
            response = router.errors(.contentTooLarge(limit: limit))
        } else if let refusal = headRefusal(request, match: match) {
            response = refusal
        } else {
            switch router.outcome(of: request, match: match) {
            case .answered(let answer):
                response = answer
            case .runOnPool(let pool, let handler, let routed):
                response = run(handler, routed, on: pool)
            }
        }
        if !response.isSendable { response = router.errors(.invalidResponse) }
        // As the server's serializer: every 429 and 503 leaves with `Retry-After` (RFC 9110 §10.2.3).
        response = response.withRetryAfter(clamping: false)
        if method == "HEAD" { response.body = [] }  // RFC 9110 §9.3.2
        return response
    }

    /// The route's `authorizeHead` on the request without its body, as the server runs it while a
    /// body is still arriving (such routes spool their bodies and run on a pool, `RouterBuilder.add`):
    /// its refusal, or nil to go on.
    private func headRefusal(_ request: HTTPRequest, match: Router.Match) -> HTTPResponse? {
        guard let check = router.headCheck(match), case .found(let route, let parameters) = match,
              case .pool(let pool) = route.execution else { return nil }
        var head = request
        head.body = []
        head.pathParameters = parameters
        switch check(head) {
        case .proceed: return nil
        case .refuse(let response): return response
        case .decideOnPool(let decide):
            let answer = Answer<HTTPResponse?>()
            guard pools.submit(to: pool, { answer.put(decide()) }) else { return router.busy }
            return answer.take()
        }
    }

    private func run(_ handler: @escaping HTTPHandler, _ request: HTTPRequest, on pool: WorkerPoolID) -> HTTPResponse {
        let answer = Answer<HTTPResponse>()
        guard pools.submit(to: pool, { answer.put(handler(request)) }) else { return router.busy }
        return answer.take()
    }
}

/// What a pool job made (a handler's response, a head's decision), handed to the waiting sender.
private final class Answer<Value: Sendable>: Sendable {
    private let value = Condition<Value?>(nil)

    func put(_ made: Value) {
        value.withLock { $0 = made }
        value.signal()
    }

    func take() -> Value {
        value.withLock(when: { $0 != nil }) { $0! }
    }
}
