/// Where a handler runs.
public enum Execution: Sendable, Equatable {
    /// On the connection's event loop: for handlers that never block (memory lookups, HMAC).
    case inline
    /// On the named worker pool (`HTTPServerConfiguration.workerPools`): for handlers that may
    /// block. Separate pools are bulkheads: slow calls filling one pool leave the others free. The
    /// response is handed back to the connection's loop, in order with its other responses.
    case pool(WorkerPoolID)

    /// The standard pool.
    public static let worker = Execution.pool(.standard)
}

/// A worker pool's name; the application chooses them, the configuration sizes them.
public struct WorkerPoolID: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let name: String

    public init(_ name: String) { self.name = name }
    public init(stringLiteral name: String) { self.name = name }

    /// The pool `HTTPServerConfiguration` sizes by default (2 threads per core).
    public static let standard = WorkerPoolID("standard")

    public var description: String { name }
}

public typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse
/// What a planning fast path decides on the event loop.
public enum FastPathPlan: Sendable {
    /// The answer, without a thread hop.
    case answer(HTTPResponse)
    /// Work begun on the event loop that must end on the route's pool (a body already rendered,
    /// to compress): the pool runs `finish` instead of the route's handler, so nothing is done twice.
    case finishOnPool(@Sendable () -> HTTPResponse)
}

/// A fast path that may hand its unfinished answer to the route's pool; nil runs the handler with
/// the request as the fast path left it (`HTTPRequest.credentialDigest`: what it computed already).
public typealias HTTPPlanningFastPath = @Sendable (inout HTTPRequest) -> FastPathPlan?
