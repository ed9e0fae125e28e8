/// One client connection's protocol state. Owned by its event loop's thread; never shared.
final class Connection {
    /// A response position: requests are answered in the order they arrived (RFC 9112 §9.3.2),
    /// even when a later one, run inline, finishes before an earlier one on the worker pool.
    struct Slot {
        let sequence: UInt64
        var info: RequestInfo
        var serialized: [UInt8]?
    }

    /// What the server remembers of a request until its response is written.
    struct RequestInfo {
        var method: String
        var path: String
        var route: String
        var userAgent: String?
        var headOnly: Bool
        var close: Bool
        var announceKeepAlive: Bool
        var startedAt: Int64
    }

    enum Phase {
        /// Reading requests and writing responses.
        case open
        /// Answered with `Connection: close`: the write side is shut and the rest of the client's
        /// data is read and discarded until it closes or `lingerTimeout` passes (RFC 9112 §9.6).
        case lingering
    }

    let fd: Int32
    let id: UInt64
    /// False for a connection refused over the limit: it holds no slot of `maxConnections`.
    let counted: Bool
    var remoteAddress: String?

    var phase = Phase.open
    var parser: HTTPRequestParser
    var inbound: [UInt8] = []
    var inboundStart = 0
    var slots: [Slot] = []
    var slotsHead = 0
    var nextSequence: UInt64 = 0
    var outbound: [UInt8] = []
    var outboundStart = 0
    /// No more requests are read; the connection ends once queued responses are written.
    var closeAfterResponses = false
    /// Complete input waits in the buffer because of the pipelining or output limits.
    var heldBack = false
    /// The client shut its write side (read returned 0).
    var peerClosedInput = false
    /// epoll interest currently registered.
    var registeredEvents: UInt32 = 0

    /// Monotonic instants (ns) for the timeouts.
    var lastActivity: Int64
    var requestStartedAt: Int64 = 0
    var bodyStartedAt: Int64 = 0
    var lastWriteProgress: Int64 = 0
    var lingerStartedAt: Int64 = 0

    init(fd: Int32, id: UInt64, counted: Bool, limits: HTTPParserLimits, now: Int64) {
        self.fd = fd
        self.id = id
        self.counted = counted
        parser = HTTPRequestParser(limits: limits)
        lastActivity = now
    }

    var pendingSlots: Int { slots.count - slotsHead }
    var pendingOutput: Int { outbound.count - outboundStart }
    var unparsedInput: Int { inbound.count - inboundStart }

    /// Nothing in progress in either direction.
    var isIdle: Bool { pendingSlots == 0 && pendingOutput == 0 && parser.progress == .idle && unparsedInput == 0 }

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
            outbound.removeAll(keepingCapacity: outbound.capacity <= 256 * 1024)
            outboundStart = 0
        } else if outboundStart >= 256 * 1024 {
            outbound.removeFirst(outboundStart)
            outboundStart = 0
        }
    }

    /// Reserves the next response position.
    func openSlot(_ info: RequestInfo) -> UInt64 {
        let sequence = nextSequence
        nextSequence += 1
        slots.append(Slot(sequence: sequence, info: info, serialized: nil))
        return sequence
    }

    /// The pending slot with `sequence`, if it is still waiting.
    func slotIndex(_ sequence: UInt64) -> Int? {
        guard slotsHead < slots.count else { return nil }
        let offset = sequence &- slots[slotsHead].sequence
        guard offset < UInt64(slots.count - slotsHead) else { return nil }
        return slotsHead + Int(offset)
    }

    /// Moves finished responses at the front of the queue into the output buffer, in order.
    func drainFinishedSlots() {
        while slotsHead < slots.count, let bytes = slots[slotsHead].serialized {
            if outboundStart == outbound.count && outbound.isEmpty {
                outbound = bytes
            } else {
                outbound.append(contentsOf: bytes)
            }
            slots[slotsHead].serialized = nil
            popHeadSlot()
        }
    }

    /// The front response has been written to the output buffer.
    func popHeadSlot() {
        slotsHead += 1
        if slotsHead == slots.count {
            slots.removeAll(keepingCapacity: true)
            slotsHead = 0
        }
    }
}
