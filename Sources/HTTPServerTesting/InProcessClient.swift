import HTTPServer
import Lifecycle

/// Sends requests to a frozen `Router` without sockets, through the server's own steps
/// (`RequestPipeline`) in the server's order: the route matched once, body admission, the route's
/// decision on the head, the route's outcome, the finishing of the answer. Only the waiting
/// differs: a pool's work is waited for here, blocking the sender. For tests about routes;
/// socket-level behaviour (framing, pipelining, timeouts, spooling) is the server's tests' business.
public final class InProcessClient: Sendable {
    public let router: Router
    private let pipeline: RequestPipeline
    private let pools: WorkerPools

    /// `configuration` gives the body limit and the worker pools (their threads start now and stop
    /// with `shutdown()`); every pool a route names must be sized there, as for the server.
    public init(router: Router, configuration: HTTPServerConfiguration = HTTPServerConfiguration()) {
        self.router = router
        pipeline = RequestPipeline(router: router, maxBodyBytes: configuration.maxBodyBytes)
        pools = WorkerPools(configuration)
        if let missing = pools.unknownPool(in: router) {
            preconditionFailure("no worker pool \(missing) in the configuration")
        }
    }

    /// Stops the worker pools once their queued jobs have run.
    public func shutdown() {
        pools.shutdown()
    }

    /// The response as a client of the server receives it (no body for HEAD, nor where the status
    /// allows none); blocks while a pool runs the route's work. `sourceAddress` poses as the
    /// client's address, as a server would give it (none by default).
    public func send(_ method: String, _ target: String, headers: [(String, String)] = [],
                     body: [UInt8] = [], sourceAddress: String? = nil) -> HTTPResponse {
        var fields = HTTPHeaders()
        for (name, value) in headers { fields.append(name: name, value: value) }
        let request = HTTPRequest(method: method, target: target, headers: fields, body: body,
                                  sourceAddress: sourceAddress)
        return pipeline.finish(answer(request), headOnly: method == "HEAD").received
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let match = pipeline.match(method: request.method, path: request.path)
        if let tooLarge = pipeline.refusal(ofBody: request.body.count, match) { return tooLarge }
        // The server asks the route about a head only while a body follows it (RFC 9112 §6.3).
        if !request.body.isEmpty, let refusal = headRefusal(request, match) { return refusal }
        switch pipeline.outcome(of: request, match: match) {
        case .answered(let answer):
            return answer
        case .runOnPool(let pool, let handler, let routed):
            return wait(on: pool) { handler(routed) } ?? pipeline.busy
        }
    }

    /// The route's refusal of the request's head, or nil to go on.
    private func headRefusal(_ request: HTTPRequest, _ match: Router.Match) -> HTTPResponse? {
        switch pipeline.decideHead(request, match) {
        case .proceed: return nil
        case .refuse(let response): return response
        case .decideOnPool(let pool, let decide):
            guard let decision = wait(on: pool, decide) else { return pipeline.busy }
            return decision
        }
    }

    /// What `work` makes on `pool`, waited for; nil when the pool's queue is full.
    private func wait<Value: Sendable>(on pool: WorkerPoolID, _ work: @escaping @Sendable () -> Value) -> Value? {
        let answer = Answer<Value>()
        guard pools.submit(to: pool, { answer.put(work()) }) else { return nil }
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
