import CSystem

/// Turning parsed requests into responses by the steps of `RequestPipeline` (routing once per
/// request, body admission, the head's decision, the route's outcome), with what only a
/// connection has: spooling, waiting for pools through the inbox, ordering, metrics and the
/// access log.
extension EventLoop {
    /// Parses and dispatches every complete request in the buffer, as far as the pipelining and
    /// output limits allow, then writes.
    func processInput(_ connection: Connection) {
        connection.heldBack = false
        let router = context.router
        let pipeline = context.pipeline
        while connection.machine.isOpen && connection.headCheck != .waiting {
            guard connection.machine.canTakeRequest(pendingOutput: connection.pendingOutput) else {
                connection.heldBack = connection.unparsedInput > 0
                break
            }
            let wasReadingHead = connection.parser.progress != .body
            let (consumed, event) = connection.inbound.withUnsafeBufferPointer { buffer in
                connection.parser.parse(UnsafeBufferPointer(rebasing: buffer[connection.inboundStart...])) { head in
                    // The head's one match: its body limit now, its dispatch when the body is in.
                    let match = pipeline.match(method: head.method, path: EventLoop.path(of: head.target))
                    connection.routedHead = match
                    if router.spoolsBody(match) {
                        connection.checkedHead = router.headCheck(match) == nil ? nil : head
                        if case .length(let length) = head.framing { connection.announcedBodyBytes = length }
                    }
                    return pipeline.bodyLimit(match)
                }
            }
            connection.consumeInbound(consumed)
            if wasReadingHead && connection.parser.progress == .body {
                connection.machine.bodyStarted(now: csystem_monotonic_ns())
            }
            if connection.parser.progress == .body, let match = connection.routedHead, router.spoolsBody(match) {
                // Before a byte of the body is kept: the route's check of the head, then the
                // file's reservation of the announced length.
                guard admitBody(connection, match) else {
                    if case .continueExpected = event { connection.continueDeferred = true }
                    if connection.headCheck == .waiting { flush(connection) }
                    return
                }
                guard spool(connection.parser.takeBufferedBody(), of: connection) else { return }
            }
            if connection.parser.progress == .body && context.overBufferBudget(for: connection.clientKey) {
                // Past the buffer budget (or the client's share of it) no body is read further:
                // 503, and the connection closes.
                closeWithError(connection, HTTPServerError(.busy, "The server holds too many buffered bytes; try again."))
                return
            }
            switch event {
            case .needMore:
                flush(connection)
                return
            case .continueExpected:
                if connection.machine.continueExpected() {
                    connection.outbound.append(contentsOf: ResponseSerializer.continueLine)
                }
            case .request(let head, let body):
                if let match = connection.routedHead, router.spoolsBody(match) {
                    guard spool(body, of: connection) else { return }
                    let file = connection.spool
                    connection.spool = nil
                    dispatch(head, body: [], spooled: file, on: connection)
                } else {
                    dispatch(head, body: body, on: connection)
                }
            case .failure(let error):
                closeWithError(connection, error.serverError)
                return
            }
        }
        flush(connection)
    }

    /// The path part of a request-target, still percent-encoded.
    private static func path(of target: String) -> String {
        String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// Whether a spooling route's body may be kept: its head passed the route's `authorizeHead`
    /// (at once, or after a pool decided). False while a pool decides, or when the request was
    /// answered.
    private func admitBody(_ connection: Connection, _ match: Router.Match) -> Bool {
        switch connection.headCheck {
        case .passed: return true
        case .waiting: return false
        case .unasked: return decideHead(connection, match)
        }
    }

    private func decideHead(_ connection: Connection, _ match: Router.Match) -> Bool {
        let step: HeadStep
        if let head = connection.checkedHead {
            step = context.pipeline.decideHead(
                HTTPRequest(method: head.method, target: head.target, headers: head.headers, version: head.version,
                            sourceAddress: connection.sourceAddress),
                match)
        } else {
            step = .proceed
        }
        let pool: WorkerPoolID, decide: @Sendable () -> HTTPResponse?
        switch step {
        case .proceed:
            connection.headCheck = .passed
            return true
        case .refuse(let response):
            closeWith(connection, response)
            return false
        case .decideOnPool(let decisionPool, let decision):
            pool = decisionPool
            decide = decision
        }
        let fd = connection.fd, id = connection.id
        guard run(decide, on: pool, for: connection, then: { [self] refusal in
            post(HeadVerdict(fd: fd, connectionID: id, refusal: refusal))
        }) else {
            closeWith(connection, context.pipeline.busy)
            return false
        }
        connection.headCheck = .waiting
        return false
    }

    /// A pool decided on the head of the request being read: refused, it is answered and the
    /// connection closes; passed, its body is read again from where it stopped.
    func decided(_ verdict: HeadVerdict) {
        guard let connection = connection(verdict.fd), connection.id == verdict.connectionID,
              connection.headCheck == .waiting else { return }
        defer { account(connection) }
        if let refusal = verdict.refusal {
            closeWith(connection, refusal)
            return
        }
        connection.headCheck = .passed
        if connection.continueDeferred {
            connection.continueDeferred = false
            if connection.machine.continueExpected() { connection.outbound.append(contentsOf: ResponseSerializer.continueLine) }
        }
        processInput(connection)
    }

    /// Moves body bytes of a spooling route to the connection's file (made on the first bytes,
    /// reserving the announced length from the spool budget); false when the file cannot take
    /// them: the request is answered (503 with `Retry-After` when the budget is spent, 413 when
    /// the body alone, announced or as it arrives, would be larger than the whole budget) and the
    /// connection closes, its partial file gone.
    private func spool(_ bytes: [UInt8], of connection: Connection) -> Bool {
        do throws(SpooledBody.Failure) {
            let file: SpooledBody
            if let open = connection.spool {
                file = open
            } else {
                // The server opens the folder at the start whenever a route spools.
                guard let spoolDirectory else { throw SpooledBody.Failure(message: "no spool directory") }
                file = try SpooledBody(directory: spoolDirectory, budget: context.spoolBudget,
                                       expectedBytes: connection.announcedBodyBytes)
                connection.spool = file
            }
            try file.append(bytes)
            return true
        } catch {
            connection.spool = nil
            if error.neverFits {
                closeWithError(connection, .contentTooLarge(limit: context.spoolBudget.limit))
            } else if error.overBudget {
                closeWithError(connection, HTTPServerError(.busy, "The server holds too many request bodies; try again."))
            } else {
                closeWithError(connection, HTTPServerError(.busy, "The request body could not be kept; try again."))
            }
            return false
        }
    }

    private func dispatch(_ head: HTTPRequestHead, body: [UInt8], spooled: SpooledBody? = nil, on connection: Connection) {
        var request = HTTPRequest(method: head.method, target: head.target, headers: head.headers, body: body,
                                  version: head.version, sourceAddress: connection.sourceAddress)
        request.spooledBody = spooled
        let keepAlive = request.wantsKeepAlive && !draining
        let match = connection.routedHead ?? context.pipeline.match(method: request.method, path: request.path)
        connection.routedHead = nil
        connection.headCheck = .unasked
        connection.checkedHead = nil
        connection.announcedBodyBytes = 0
        connection.continueDeferred = false
        var routeName = RequestStats.unmatchedRoute
        if case .found(let route, _) = match { routeName = route.pattern.text }
        let summary = RequestSummary(method: request.method, path: request.path, route: routeName,
                                     userAgent: context.accessLog == nil ? nil : request.header("User-Agent"))
        let info = Connection.RequestInfo(summary: summary, headOnly: request.method == "HEAD", close: !keepAlive,
                                          announceKeepAlive: keepAlive && request.version == .http1_0,
                                          startedAt: csystem_monotonic_ns())
        let now = csystem_monotonic_ns()
        guard case .dispatch(let sequence) = connection.machine.requestReceived(
            info, keepAlive: keepAlive, moreInput: connection.unparsedInput > 0, now: now) else { return }
        if context.overBufferBudget(for: connection.clientKey) {
            // Past the buffer budget, or the client's share of it, no handler runs (its answer
            // could be large): a short 503.
            complete(connection, sequence: sequence, response: context.pipeline.busy)
            return
        }
        switch context.pipeline.outcome(of: request, match: match) {
        case .answered(let response):
            complete(connection, sequence: sequence, response: response)
        case .runOnPool(let pool, let handler, let routed):
            let fd = connection.fd, id = connection.id
            let accepted = run({ handler(routed) }, on: pool, for: connection, then: { [self] response in
                post(Completion(fd: fd, connectionID: id, sequence: sequence, response: response))
            })
            if !accepted { complete(connection, sequence: sequence, response: context.pipeline.busy) }
        }
    }

    /// Runs `work` on `pool` within the connection's client's share of it, gives the share back,
    /// then hands the result to `deliver` (on the worker). False when the share or the pool's
    /// queue is full: nothing was queued.
    private func run<Result: Sendable>(_ work: @escaping @Sendable () -> Result, on pool: WorkerPoolID,
                                       for connection: Connection,
                                       then deliver: @escaping @Sendable (Result) -> Void) -> Bool {
        let client = connection.clientKey, shares = context.clientShares
        guard shares.admit(client, to: pool) else { return false }
        let accepted = context.workers.submit(to: pool) {
            let result = work()
            shares.release(client, from: pool)
            deliver(result)
        }
        if !accepted { shares.release(client, from: pool) }
        return accepted
    }

    /// A worker's response arrives: place it in its position and write what is now in order.
    func complete(_ completion: Completion) {
        guard let connection = connection(completion.fd), connection.id == completion.connectionID else { return }
        complete(connection, sequence: completion.sequence, response: completion.response)
        flush(connection)
        account(connection)
    }

    /// Serializes a response (straight into the output when it is next in line, else held) and
    /// records it.
    func complete(_ connection: Connection, sequence: UInt64, response: HTTPResponse) {
        guard let info = connection.machine.pending(sequence) else { return }
        let framing = ResponseSerializer.Framing(headOnly: info.headOnly, close: info.close,
                                                 announceKeepAlive: info.announceKeepAlive)
        let errors = context.router.errors
        let byteCount: Int
        // What was written, which is the handler's status unless its answer could not be sent.
        let status: Int
        switch connection.machine.responseReady(sequence: sequence) {
        case .drop:
            return
        case .writeNow:
            let before = connection.outbound.count
            status = ResponseSerializer.write(response, framing: framing, date: dateCache.headerLine, errors: errors,
                                              into: &connection.outbound)
            byteCount = connection.outbound.count - before
        case .hold:
            var bytes: [UInt8] = []
            bytes.reserveCapacity(160 + response.body.count)
            status = ResponseSerializer.write(response, framing: framing, date: dateCache.headerLine, errors: errors,
                                              into: &bytes)
            byteCount = bytes.count
            connection.machine.hold(sequence: sequence, serialized: bytes)
        }
        let seconds = Double(csystem_monotonic_ns() - info.startedAt) / 1e9
        stats.record(method: info.summary.method, route: info.summary.route, status: status, seconds: seconds)
        if let log = context.accessLog {
            log.record(AccessLog.Entry(unixMilliseconds: csystem_wall_milliseconds(), request: info.summary,
                                       status: status, responseBytes: byteCount, durationSeconds: seconds,
                                       remoteAddress: connection.remoteAddress))
        }
    }
}
