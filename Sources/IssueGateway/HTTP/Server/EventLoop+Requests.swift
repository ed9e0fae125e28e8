import CSystem

/// Turning parsed requests into responses: routing, inline and worker execution, ordering,
/// metrics and the access log.
extension EventLoop {
    /// Parses and dispatches every complete request in the buffer, as far as the pipelining and
    /// output limits allow, then writes.
    func processInput(_ connection: Connection) {
        connection.heldBack = false
        while connection.phase == .open && !connection.closeAfterResponses {
            guard canTakeRequest(connection) else {
                connection.heldBack = connection.unparsedInput > 0
                break
            }
            let wasReadingHead = connection.parser.progress != .body
            let (consumed, event) = connection.inbound.withUnsafeBufferPointer { buffer in
                connection.parser.parse(UnsafeBufferPointer(rebasing: buffer[connection.inboundStart...]),
                                        bodyLimit: bodyLimit)
            }
            connection.consumeInbound(consumed)
            if wasReadingHead && connection.parser.progress == .body {
                connection.bodyStartedAt = csystem_monotonic_ns()
            }
            switch event {
            case .needMore:
                flush(connection)
                return
            case .continueExpected:
                // Only when no earlier response is pending, so the interim answer cannot overtake it.
                if connection.pendingSlots == 0 {
                    connection.outbound.append(contentsOf: ResponseSerializer.continueLine)
                }
            case .request(let head, let body):
                dispatch(head, body: body, on: connection)
                if connection.unparsedInput > 0 { connection.requestStartedAt = csystem_monotonic_ns() }
            case .failure(let error):
                closeWithError(connection, error.response)
                return
            }
        }
        flush(connection)
    }

    /// Pipelining and output limits: past them the connection's input waits in its buffer.
    func canTakeRequest(_ connection: Connection) -> Bool {
        connection.pendingSlots < context.configuration.maxPipelinedRequests
            && connection.pendingOutput < context.configuration.maxPendingOutputBytes
    }

    private func bodyLimit(_ head: HTTPRequestHead) -> Int {
        let path = head.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        if case .found(let route, _) = context.router.match(method: head.method, path: String(path)),
           let limit = route.maxBodyBytes {
            return limit
        }
        return context.configuration.maxBodyBytes
    }

    private func dispatch(_ head: HTTPRequestHead, body: [UInt8], on connection: Connection) {
        var request = HTTPRequest(method: head.method, target: head.target, headers: head.headers, body: body,
                                  version: head.version)
        let keepAlive = request.wantsKeepAlive && !draining
        if !keepAlive { connection.closeAfterResponses = true }
        let match = context.router.match(method: request.method, path: request.path)
        var routeName = RequestStats.unmatchedRoute
        if case .found(let route, _) = match { routeName = route.pattern.text }
        let info = Connection.RequestInfo(method: request.method, path: request.path, route: routeName,
                                          userAgent: context.accessLog == nil ? nil : request.header("User-Agent"),
                                          headOnly: request.method == "HEAD", close: !keepAlive,
                                          announceKeepAlive: keepAlive && request.version == .http1_0,
                                          startedAt: csystem_monotonic_ns())
        let sequence = connection.openSlot(info)
        switch match {
        case .notFound:
            complete(connection, sequence: sequence,
                     response: .error(404, code: "not_found", message: "No route for \(request.path)."))
        case .badPath:
            complete(connection, sequence: sequence,
                     response: .error(400, code: "bad_request", message: "The path is not valid percent-encoding."))
        case .methodNotAllowed(let allowed):
            var response = HTTPResponse.error(405, code: "method_not_allowed",
                                              message: "\(request.method) is not allowed on \(request.path).")
            response.headers.append(("Allow", allowed.joined(separator: ", ")))  // RFC 9110 §15.5.6
            complete(connection, sequence: sequence, response: response)
        case .found(let route, let parameters):
            request.pathParameters = parameters
            switch route.execution {
            case .inline:
                complete(connection, sequence: sequence, response: route.handler(request))
            case .worker:
                let handler = route.handler
                let fd = connection.fd
                let id = connection.id
                let workerRequest = request
                let accepted = context.workers.submit { [self] in
                    let response = handler(workerRequest)
                    self.post(Completion(fd: fd, connectionID: id, sequence: sequence, response: response))
                }
                if !accepted {
                    complete(connection, sequence: sequence,
                             response: .error(503, code: "service_unavailable", message: "The server is busy; try again."))
                }
            }
        }
    }

    /// A worker's response arrives: place it in its slot and write what is now in order.
    func complete(_ completion: Completion) {
        guard let connection = connection(completion.fd), connection.id == completion.connectionID else { return }
        complete(connection, sequence: completion.sequence, response: completion.response)
        flush(connection)
    }

    /// Serializes a response into its slot and records it.
    func complete(_ connection: Connection, sequence: UInt64, response: HTTPResponse) {
        guard let index = connection.slotIndex(sequence) else { return }
        let info = connection.slots[index].info
        let framing = ResponseSerializer.Framing(headOnly: info.headOnly, close: info.close,
                                                 announceKeepAlive: info.announceKeepAlive)
        let byteCount: Int
        if index == connection.slotsHead {
            // Next in line: straight into the output buffer, no copy through the slot.
            let before = connection.outbound.count
            ResponseSerializer.write(response, framing: framing, date: dateCache.headerLine, into: &connection.outbound)
            byteCount = connection.outbound.count - before
            connection.popHeadSlot()
        } else {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(160 + response.body.count)
            ResponseSerializer.write(response, framing: framing, date: dateCache.headerLine, into: &bytes)
            byteCount = bytes.count
            connection.slots[index].serialized = bytes
        }
        let seconds = Double(csystem_monotonic_ns() - info.startedAt) / 1e9
        stats.record(method: info.method, route: info.route, status: response.status, seconds: seconds)
        if let log = context.accessLog {
            log.record(AccessLog.Entry(unixMilliseconds: csystem_wall_milliseconds(), method: info.method,
                                       path: info.path, route: info.route, status: response.status,
                                       responseBytes: byteCount, durationSeconds: seconds,
                                       remoteAddress: connection.remoteAddress, userAgent: info.userAgent))
        }
    }
}
