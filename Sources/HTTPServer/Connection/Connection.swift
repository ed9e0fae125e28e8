/// One client connection: its socket and buffers, and its protocol state
/// (`ConnectionStateMachine`), which decides what the loop does with them. Owned by its event
/// loop's thread; never shared.
final class Connection {
    /// What the server remembers of a request until its response is written.
    struct RequestInfo {
        var summary: RequestSummary
        var headOnly: Bool
        var close: Bool
        var announceKeepAlive: Bool
        var startedAt: Int64
    }

    let fd: Int32
    let id: UInt64
    /// False for a connection refused over the limit: it holds no slot of `maxConnections`.
    let counted: Bool
    /// The peer's IP address (`HTTPRequest.sourceAddress`, the key of per-client limits) and port.
    var sourceAddress: String?
    var sourcePort: Int = 0
    /// The client the address belongs to (`ClientKey`), computed once per connection.
    var clientKey: String?
    /// As the access log writes it: `127.0.0.1:5555`, `[::1]:5555`.
    var remoteAddress: String? {
        sourceAddress.map { $0.contains(":") ? "[\($0)]:\(sourcePort)" : "\($0):\(sourcePort)" }
    }

    var machine: ConnectionStateMachine<RequestInfo>
    var parser: HTTPRequestParser
    var inbound: [UInt8] = []
    var inboundStart = 0
    var outbound: [UInt8] = []
    var outboundStart = 0
    /// Complete input waits in the buffer because of the pipelining or output limits.
    var heldBack = false
    /// The route of the request whose body is being read: matched once for its body limit, and
    /// dispatched with the same match.
    var routedHead: Router.Match?
    /// The file the body of the request being read goes to, when its route spools bodies.
    var spool: SpooledBody?
    /// Where the request being read stands with its route's `authorizeHead`.
    enum HeadCheck { case unasked, waiting, passed }
    var headCheck = HeadCheck.unasked
    /// The head of the request being read, kept for its route's `authorizeHead` (nil without one).
    var checkedHead: HTTPRequestHead?
    /// `100 Continue` was asked for while the head waited for its route's decision: sent if it passes.
    var continueDeferred = false
    /// The body length the request being read announced (0 when chunked): what its file reserves.
    var announcedBodyBytes = 0
    /// epoll interest currently registered.
    var registeredEvents: UInt32 = 0
    /// This connection's share of `ServerContext.bufferedBytes`, as last counted.
    var accountedBytes = 0

    init(fd: Int32, id: UInt64, counted: Bool, limits: HTTPParserLimits, configuration: HTTPServerConfiguration,
         now: Int64) {
        self.fd = fd
        self.id = id
        self.counted = counted
        parser = HTTPRequestParser(limits: limits)
        machine = ConnectionStateMachine(now: now, maxPipelinedRequests: configuration.maxPipelinedRequests,
                                         maxPendingOutputBytes: configuration.maxPendingOutputBytes)
    }

    static let retainedOutputCapacity = 16 * 1024

    var pendingOutput: Int { outbound.count - outboundStart }
    /// What this connection holds for the buffer budget: body being read, unparsed input, output.
    var bufferedBytes: Int { parser.bufferedBodyBytes + unparsedInput + pendingOutput + machine.heldBytes }
    var unparsedInput: Int { inbound.count - inboundStart }

    /// No request partly read and nothing unparsed.
    var inputIdle: Bool { parser.progress == .idle && unparsedInput == 0 }

    var inputProgress: ConnectionStateMachine<RequestInfo>.InputProgress {
        switch parser.progress {
        case .idle: .idle
        case .head: .head
        case .body: .body
        }
    }

    func consumeInbound(_ count: Int) {
        inboundStart += count
        if inboundStart == inbound.count {
            inbound.removeAll(keepingCapacity: true)
            inboundStart = 0
        } else if inboundStart >= 16 * 1024 {
            inbound.removeFirst(inboundStart)
            inboundStart = 0
        }
    }

    func consumeOutbound(_ count: Int) {
        outboundStart += count
        if outboundStart == outbound.count {
            // An idle connection keeps at most a small buffer, not the last large answer's.
            outbound.removeAll(keepingCapacity: outbound.capacity <= Connection.retainedOutputCapacity)
            outboundStart = 0
        } else if outboundStart >= 256 * 1024 {
            outbound.removeFirst(outboundStart)
            outboundStart = 0
        }
    }

    /// Moves held answers that are now in order into the output buffer.
    func drainHeldResponses() {
        while let bytes = machine.takeHeldResponse() {
            if outboundStart == outbound.count && outbound.isEmpty {
                outbound = bytes
            } else {
                outbound.append(contentsOf: bytes)
            }
        }
    }
}
