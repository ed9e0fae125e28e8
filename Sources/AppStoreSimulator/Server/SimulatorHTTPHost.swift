/// One route of the simulator, independent of the HTTP server that carries it.
public struct SimulatorRoute: Sendable {
    public let method: String
    public let path: String
    /// Largest request body the route reads; the server refuses longer ones unread.
    public let maxBodyBytes: Int?
    /// The handler may wait on the network (delivering a notification): run it off the event loop.
    public let blocks: Bool
    public let handle: @Sendable (_ body: [UInt8]) -> SimulatorResponse
}

/// A route's answer.
public struct SimulatorResponse: Sendable, Equatable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]
}

/// What the simulator needs from an HTTP server: serve its routes on one address. The simulator
/// holds no sockets; the project's HTTP server provides this (see `AppStoreSimulatorServer`).
public protocol SimulatorHTTPHost: Sendable {
    /// Binds and serves; returns the bound port at once.
    func start() throws -> Int
    /// Serves until SIGTERM or SIGINT, then stops gracefully; `onStart` gets the bound port.
    func runUntilSignalled(onStart: (Int) -> Void) throws
    /// Finishes in-flight requests and returns once stopped.
    func stop()
}

/// Builds a host serving `routes` on `host:port` (0: ephemeral).
public typealias SimulatorHTTPHostFactory = @Sendable (_ host: String, _ port: Int, _ routes: [SimulatorRoute]) -> any SimulatorHTTPHost
