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
