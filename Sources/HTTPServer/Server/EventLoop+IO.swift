import CSystem
import Glibc

/// Reading, writing and closing connections (level-triggered epoll): the I/O that carries out
/// what each connection's state machine decides.
extension EventLoop {
    func handle(_ connection: Connection, events: UInt32) {
        defer { account(connection) }
        if events & EventLoop.writable != 0 {
            flush(connection)
            guard self.connection(connection.fd) === connection else { return }
        }
        if events & ~EventLoop.writable != 0 {
            // Also on EPOLLHUP/EPOLLERR alone: recv then reports the end or the error. The event may
            // be stale (its connection closed and the descriptor reused in this batch), so only
            // recv's answer decides.
            if case .lingering = connection.machine.state {
                discardInput(connection)
            } else {
                readInput(connection)
            }
        }
    }

    private func readInput(_ connection: Connection) {
        let count = readBuffer.withUnsafeMutableBytes { buffer in
            recv(connection.fd, buffer.baseAddress, buffer.count, 0)
        }
        if count > 0 {
            connection.machine.bytesRead(now: csystem_monotonic_ns(), startsRequest: connection.inputIdle)
            connection.inbound.append(contentsOf: readBuffer[0..<count])
            processInput(connection)
        } else if count == 0 {
            perform(connection.machine.peerClosedInput(pendingOutput: connection.pendingOutput), on: connection)
        } else {
            let error = csystem_errno()
            if error != EAGAIN && error != EWOULDBLOCK && error != EINTR { close(connection) }
        }
    }

    /// Writes as much queued output as the socket takes; the rest waits for EPOLLOUT.
    func flush(_ connection: Connection) {
        if connection.registeredEvents & EventLoop.writable == 0 {
            // Not waiting on the client yet: the write timeout counts from now.
            connection.machine.writeStarted(now: csystem_monotonic_ns())
        }
        connection.drainHeldResponses()
        while connection.pendingOutput > 0 {
            let written = connection.outbound.withUnsafeBytes { bytes in
                csystem_send(connection.fd, bytes.baseAddress! + connection.outboundStart, connection.pendingOutput)
            }
            if written > 0 {
                connection.consumeOutbound(written)
                connection.machine.wroteBytes(now: csystem_monotonic_ns())
                continue
            }
            let error = csystem_errno()
            if written < 0 && (error == EAGAIN || error == EWOULDBLOCK) { break }
            if written < 0 && error == EINTR { continue }
            close(connection)  // EPIPE, ECONNRESET: the client is gone
            return
        }
        let action = connection.machine.wrote(pendingOutput: connection.pendingOutput, inputIdle: connection.inputIdle,
                                              heldInput: connection.heldBack, now: csystem_monotonic_ns())
        perform(action, on: connection)
    }

    func perform(_ action: ConnectionStateMachine<Connection.RequestInfo>.IOAction, on connection: Connection) {
        switch action {
        case .read: processInput(connection)
        case .wait: updateInterest(connection)
        case .linger: beginLingering(connection)
        case .close: close(connection)
        }
    }

    /// Reads while the connection can take more requests; writes when output is pending.
    func updateInterest(_ connection: Connection) {
        // While a pool decides on a head, nothing more of its body is read (`HeadDecision`).
        let wantsInput = connection.machine.wantsInput(pendingOutput: connection.pendingOutput)
            && connection.headCheck != .waiting
        let wanted = (wantsInput ? UInt32(EPOLLIN.rawValue) : 0) | (connection.pendingOutput > 0 ? EventLoop.writable : 0)
        guard wanted != connection.registeredEvents else { return }
        connection.registeredEvents = wanted
        _ = csystem_epoll_modify(epollFD, connection.fd, wanted, UInt64(connection.fd))
    }

    /// Sends the server's own answer with `Connection: close` after the answers to the requests
    /// before it (still queued, or still on a worker: the position keeps the order), and stops
    /// reading.
    func closeWithError(_ connection: Connection, _ error: HTTPServerError) {
        closeWith(connection, context.router.errors(error))
    }

    /// As `closeWithError`, with an answer already rendered (a route's refusal of a head). A body
    /// being spooled is dropped at once: its file and its share of the spool budget go with it.
    func closeWith(_ connection: Connection, _ response: HTTPResponse) {
        connection.headCheck = .unasked
        connection.spool = nil
        let info = Connection.RequestInfo(summary: .unread, headOnly: false, close: true, announceKeepAlive: false,
                                          startedAt: csystem_monotonic_ns())
        if case .reject(let sequence) = connection.machine.failed(info) {
            complete(connection, sequence: sequence, response: response)
        }
        flush(connection)
    }

    /// RFC 9112 §9.6: half-close, then read and discard until the client closes, so that an answer
    /// sent before unread input is not destroyed by a reset.
    private func beginLingering(_ connection: Connection) {
        connection.inbound = []
        connection.inboundStart = 0
        shutdown(connection.fd, Int32(SHUT_WR))
        updateInterest(connection)
    }

    private func discardInput(_ connection: Connection) {
        let count = readBuffer.withUnsafeMutableBytes { buffer in
            recv(connection.fd, buffer.baseAddress, buffer.count, 0)
        }
        if count == 0 || (count < 0 && csystem_errno() != EAGAIN && csystem_errno() != EINTR) {
            close(connection)
        }
    }

    /// Brings the server-wide count of buffered bytes up to date with this connection's.
    func account(_ connection: Connection) {
        guard self.connection(connection.fd) === connection else { return }  // closed: released already
        let now = connection.bufferedBytes
        guard now != connection.accountedBytes else { return }
        context.bufferedBytes.wrappingAdd(now - connection.accountedBytes, ordering: .relaxed)
        context.clientBuffers.add(now - connection.accountedBytes, for: connection.clientKey)
        connection.accountedBytes = now
    }

    func close(_ connection: Connection) {
        guard self.connection(connection.fd) === connection else { return }
        context.bufferedBytes.wrappingSubtract(connection.accountedBytes, ordering: .relaxed)
        context.clientBuffers.add(-connection.accountedBytes, for: connection.clientKey)
        connection.accountedBytes = 0
        connection.machine.closed()
        connections[Int(connection.fd)] = nil
        connectionCount -= 1
        _ = csystem_epoll_remove(epollFD, connection.fd)
        Glibc.close(connection.fd)
        if connection.counted { context.releaseConnection() }
    }
}
