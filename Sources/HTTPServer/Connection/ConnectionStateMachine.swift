/// One connection's HTTP/1.1 protocol state as a value: each function takes an event and returns
/// the action the event loop performs. No sockets, buffers or clocks here (the loop passes `now`
/// and buffer sizes in), so every transition is tested without a network.
///
/// `Pending` is what the loop keeps per request until its answer is written (the framing and the
/// access-log fields); answers are handed over in any order and come out in request order
/// (RFC 9112 §9.3.2).
struct ConnectionStateMachine<Pending> {
    enum State: Equatable {
        /// Reading requests and writing answers.
        case open
        /// No more requests are read (`Connection: close`, an error, the client's end of input, a
        /// shutdown); the connection ends once the answers owed are written.
        case closing(peerClosedInput: Bool)
        /// RFC 9112 §9.6: the write side is shut and input is read and discarded until the client
        /// closes or the linger timeout passes, so the last answer is not destroyed by a reset.
        case lingering(since: Int64)
        case closed
    }

    /// What the loop does after a request was parsed.
    enum RequestAction: Equatable {
        /// Route and run it; its answer goes to `responseReady(sequence:…)`.
        case dispatch(sequence: UInt64)
        /// Answer it with a server error in this position, then end the connection.
        case reject(sequence: UInt64)
    }

    /// Where an answer goes.
    enum ResponseAction: Equatable {
        /// It is next in line: serialize it straight into the output (no copy through a slot),
        /// then append whatever `takeHeldResponse()` gives, and write.
        case writeNow
        /// An earlier answer is still outstanding: serialize it and `hold` it until its turn.
        case hold
        /// The connection is gone, or the position unknown: nothing to do.
        case drop
    }

    /// What the loop does after a write, the client's end of input or a shutdown.
    enum IOAction: Equatable {
        /// Parse the input held back by the limits: more requests can be taken now.
        case read
        /// Nothing until the next event (epoll interest as `wantsInput` says).
        case wait
        /// Half-close and discard input (RFC 9112 §9.6).
        case linger
        case close
    }

    enum TimeoutAction: Equatable {
        case none
        case close
        /// 408, then close.
        case requestTimeout
    }

    /// Where the request in progress is, for its timeouts (the parser's progress).
    enum InputProgress: Equatable {
        case idle
        case head
        case body
    }

    /// In nanoseconds, as the monotonic instants the loop passes.
    struct Timeouts {
        var idle: Int64
        var headerRead: Int64
        var bodyRead: Int64
        var write: Int64
        var linger: Int64
    }

    private struct Slot {
        let sequence: UInt64
        var pending: Pending
        var serialized: [UInt8]?
    }

    private(set) var state = State.open
    private var slots: [Slot] = []
    private var slotsHead = 0
    private var nextSequence: UInt64 = 0
    /// A graceful shutdown asked this connection to finish.
    private(set) var draining = false
    /// Monotonic instants (ns) behind the timeouts.
    private var lastActivity: Int64
    private var lastWriteProgress: Int64 = 0
    private var requestStartedAt: Int64 = 0
    private var bodyStartedAt: Int64 = 0

    let maxPipelinedRequests: Int
    let maxPendingOutputBytes: Int

    init(now: Int64, maxPipelinedRequests: Int, maxPendingOutputBytes: Int) {
        lastActivity = now
        self.maxPipelinedRequests = maxPipelinedRequests
        self.maxPendingOutputBytes = maxPendingOutputBytes
    }

    /// Answers owed: dispatched or rejected, not yet in the output buffer.
    var owedResponses: Int { slots.count - slotsHead }

    var isOpen: Bool { state == .open }

    /// Pipelining and output limits: past them the connection's input waits in its buffer.
    func canTakeRequest(pendingOutput: Int) -> Bool {
        state == .open && owedResponses < maxPipelinedRequests && pendingOutput < maxPendingOutputBytes
    }

    /// The epoll read interest: open and under the limits, or lingering (to see the client's end).
    func wantsInput(pendingOutput: Int) -> Bool {
        if case .lingering = state { return true }
        return canTakeRequest(pendingOutput: pendingOutput)
    }

    // MARK: Events

    /// Bytes arrived. `startsRequest`: nothing of a request was buffered before them, so the
    /// header read timeout counts from now.
    mutating func bytesRead(now: Int64, startsRequest: Bool) {
        if startsRequest { requestStartedAt = now }
        lastActivity = now
    }

    /// The head is complete and a body follows: the body read timeout counts from now.
    mutating func bodyStarted(now: Int64) {
        bodyStartedAt = now
    }

    /// A complete request. `keepAlive` is the client's wish (RFC 9112 §9.3); after a request that
    /// does not keep the connection, or during a shutdown, nothing more is read.
    /// `moreInput`: bytes of the next request are already buffered (its head timeout starts now).
    mutating func requestReceived(_ pending: Pending, keepAlive: Bool, moreInput: Bool, now: Int64) -> RequestAction {
        let sequence = openSlot(pending)
        if !keepAlive || draining { stopReading() }
        if moreInput { requestStartedAt = now }
        return .dispatch(sequence: sequence)
    }

    /// Whether the interim `100 Continue` may go out now: only when no earlier answer is owed, so
    /// it cannot overtake one (RFC 9110 §10.1.1 lets the server skip it).
    func continueExpected() -> Bool {
        owedResponses == 0
    }

    /// A request that could not be read (RFC 9112 §11.2: the next one's start cannot be trusted),
    /// or a timeout or refusal: answered after the answers before it, then the connection ends.
    mutating func failed(_ pending: Pending) -> RequestAction {
        let sequence = openSlot(pending)
        stopReading()
        return .reject(sequence: sequence)
    }

    /// The pending request at `sequence`, while its answer is owed.
    func pending(_ sequence: UInt64) -> Pending? {
        slotIndex(sequence).map { slots[$0].pending }
    }

    /// The answer for `sequence` is ready: written now when it is next in line (request order,
    /// RFC 9112 §9.3.2), else held.
    mutating func responseReady(sequence: UInt64) -> ResponseAction {
        guard state != .closed, let index = slotIndex(sequence), slots[index].serialized == nil else { return .drop }
        guard index == slotsHead else { return .hold }
        popHead()
        return .writeNow
    }

    /// Keeps a serialized answer that must wait for earlier ones.
    /// Bytes of answers serialized but waiting for earlier ones (`hold`).
    private(set) var heldBytes = 0

    mutating func hold(sequence: UInt64, serialized: [UInt8]) {
        guard let index = slotIndex(sequence) else { return }
        slots[index].serialized = serialized
        heldBytes += serialized.count
    }

    /// The next held answer, once every answer before it has been written.
    mutating func takeHeldResponse() -> [UInt8]? {
        guard slotsHead < slots.count, let bytes = slots[slotsHead].serialized else { return nil }
        popHead()
        heldBytes -= bytes.count
        return bytes
    }

    /// Output is about to be written with nothing in flight: the write timeout counts from now.
    mutating func writeStarted(now: Int64) {
        lastWriteProgress = now
    }

    /// The client took bytes: the write and idle timeouts count from now.
    mutating func wroteBytes(now: Int64) {
        lastWriteProgress = now
        lastActivity = now
    }

    /// A write left `pendingOutput` bytes (0: all written): what next. `inputIdle`: no request
    /// partly read and no unparsed input. `heldInput`: input waits in the buffer because of the
    /// pipelining or output limits.
    mutating func wrote(pendingOutput: Int, inputIdle: Bool, heldInput: Bool, now: Int64) -> IOAction {
        let finished = pendingOutput == 0 && owedResponses == 0
        switch state {
        case .closing(let peerClosedInput) where finished:
            if peerClosedInput {
                state = .closed
                return .close
            }
            state = .lingering(since: now)
            return .linger
        case .open where finished && draining && inputIdle:
            state = .closed
            return .close
        case .open where heldInput && canTakeRequest(pendingOutput: pendingOutput):
            return .read
        case .closed:
            return .close
        default:
            return .wait
        }
    }

    /// The client shut its write side (recv returned 0): answer what was asked, then close
    /// (RFC 9112 §9.6). A second end of input (EPOLLHUP) or one while lingering closes.
    mutating func peerClosedInput(pendingOutput: Int) -> IOAction {
        switch state {
        case .open, .closing(peerClosedInput: false):
            if owedResponses == 0 && pendingOutput == 0 {
                state = .closed
                return .close
            }
            state = .closing(peerClosedInput: true)
            return .wait
        case .closing(peerClosedInput: true), .lingering, .closed:
            state = .closed
            return .close
        }
    }

    /// Graceful shutdown: an idle connection closes now. One with answers owed stops reading and
    /// `markClosing` makes the last of them say `Connection: close` (RFC 9112 §9.6); one with a
    /// request partly read finishes it, and its answer closes the connection.
    mutating func shutdown(pendingOutput: Int, inputIdle: Bool, markClosing: (inout Pending) -> Void) -> IOAction {
        draining = true
        if case .lingering = state {
            state = .closed
            return .close
        }
        guard state == .open else { return .wait }
        if owedResponses == 0 && pendingOutput == 0 && inputIdle {
            state = .closed
            return .close
        }
        if owedResponses > 0 {
            stopReading()
            // Only the last owed answer says close: a client obeying RFC 9112 §9.6 discards what
            // follows one that does, and might send again a request the server has already done.
            // When the last one is already serialized, none says it; the connection still closes
            // once it is written.
            if let last = slots.indices.last, last >= slotsHead, slots[last].serialized == nil {
                markClosing(&slots[last].pending)
            }
        }
        return .wait
    }

    /// The loop's timer: which timeout, if any, has passed (`timeouts` in nanoseconds).
    mutating func tick(now: Int64, input: InputProgress, pendingOutput: Int, timeouts: Timeouts) -> TimeoutAction {
        let action: TimeoutAction
        switch state {
        case .closed:
            return .none
        case .lingering(let since):
            action = now - since > timeouts.linger ? .close : .none
        default:
            if pendingOutput > 0 {
                action = now - lastWriteProgress > timeouts.write ? .close : .none
            } else if owedResponses > 0 {
                return .none  // a handler is working on it
            } else {
                switch input {
                case .idle:
                    action = now - lastActivity > timeouts.idle ? .close : .none
                case .head:
                    action = now - requestStartedAt > timeouts.headerRead ? .requestTimeout : .none
                case .body:
                    action = now - bodyStartedAt > timeouts.bodyRead ? .requestTimeout : .none
                }
            }
        }
        if action == .close { state = .closed }
        return action
    }

    /// The loop closed the socket (an error, a reset).
    mutating func closed() {
        state = .closed
    }

    // MARK: Positions

    private mutating func stopReading() {
        if state == .open { state = .closing(peerClosedInput: false) }
    }

    private mutating func openSlot(_ pending: Pending) -> UInt64 {
        let sequence = nextSequence
        nextSequence += 1
        slots.append(Slot(sequence: sequence, pending: pending, serialized: nil))
        return sequence
    }

    private func slotIndex(_ sequence: UInt64) -> Int? {
        guard slotsHead < slots.count else { return nil }
        let offset = sequence &- slots[slotsHead].sequence
        guard offset < UInt64(slots.count - slotsHead) else { return nil }
        return slotsHead + Int(offset)
    }

    private mutating func popHead() {
        slotsHead += 1
        if slotsHead == slots.count {
            slots.removeAll(keepingCapacity: true)
            slotsHead = 0
        }
    }
}
