/// One route of the simulator, independent of the HTTP server that carries it.
public struct SimulatorRoute: Sendable {
    public let method: String
    public let path: String
    /// Largest request body the route reads; the server refuses longer ones unread.
    public let maxBodyBytes: Int?
    /// The handler may wait on the network (delivering a notification): run it off the event loop.
    public let blocks: Bool
    public let handleRequest: @Sendable (_ request: SimulatorRequest) -> SimulatorResponse

    public init(method: String, path: String, maxBodyBytes: Int?, blocks: Bool,
                handleRequest: @escaping @Sendable (_ request: SimulatorRequest) -> SimulatorResponse) {
        self.method = method; self.path = path; self.maxBodyBytes = maxBodyBytes; self.blocks = blocks
        self.handleRequest = handleRequest
    }

    /// A route that reads only the body.
    public init(method: String, path: String, maxBodyBytes: Int?, blocks: Bool,
                handle: @escaping @Sendable (_ body: [UInt8]) -> SimulatorResponse) {
        self.init(method: method, path: path, maxBodyBytes: maxBodyBytes, blocks: blocks) { request in handle(request.body) }
    }
}

/// What a route sees of a request: the Server API's routes read the path's id, the query and
/// the bearer token as well as the body.
public struct SimulatorRequest: Sendable {
    public var body: [UInt8]
    public var parameters: [String: String]
    public var query: [(String, String)]
    public var authorization: String?

    public init(body: [UInt8], parameters: [String: String] = [:], query: [(String, String)] = [], authorization: String? = nil) {
        self.body = body; self.parameters = parameters; self.query = query; self.authorization = authorization
    }

    public func queryValue(_ name: String) -> String? { query.first { $0.0 == name }?.1 }
}

/// A route's answer.
public struct SimulatorResponse: Sendable, Equatable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]
    /// Extra header fields (the Server API's `Retry-After`).
    public var headers: [String: String] = [:]
}
