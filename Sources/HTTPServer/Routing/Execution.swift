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
/// An answer from memory on the event loop, or nil to run the route's handler on its pool.
public typealias HTTPFastPath = @Sendable (HTTPRequest) -> HTTPResponse?
