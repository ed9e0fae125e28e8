import CSystem
import Glibc

/// Reading, writing and closing connections (level-triggered epoll).
extension EventLoop {
    func handle(_ connection: Connection, events: UInt32) {
        if events & EventLoop.writable != 0 {
            flush(connection)
            guard self.connection(connection.fd) === connection else { return }
        }
        if events & ~EventLoop.writable != 0 {
            // Also on EPOLLHUP/EPOLLERR alone: recv then reports the end or the error. The event may
            // be stale (its connection closed and the descriptor reused in this batch), so only
            // recv's answer decides.
            if connection.phase == .lingering {
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
            let now = csystem_monotonic_ns()
            if connection.parser.progress == .idle && connection.unparsedInput == 0 {
                connection.requestStartedAt = now
            }
            connection.lastActivity = now
            connection.inbound.append(contentsOf: readBuffer[0..<count])
            processInput(connection)
        } else if count == 0 {
            // Woken again after the end of input (EPOLLIN is off by then): EPOLLHUP, the client is
            // gone in both directions, and level-triggered epoll would keep waking the loop.
            if connection.peerClosedInput {
                close(connection)
                return
            }
            // The client closed its side: answer what was asked, then close (RFC 9112 §9.6).
            connection.peerClosedInput = true
            connection.closeAfterResponses = true
            if connection.pendingSlots == 0 && connection.pendingOutput == 0 {
                close(connection)
                return
            }
            updateInterest(connection)
        } else {
            let error = csystem_errno()
            if error != EAGAIN && error != EWOULDBLOCK && error != EINTR { close(connection) }
        }
    }

    /// Writes as much queued output as the socket takes; the rest waits for EPOLLOUT.
    func flush(_ connection: Connection) {
        if connection.registeredEvents & EventLoop.writable == 0 {
            // Not waiting on the client yet: the write timeout counts from now.
            connection.lastWriteProgress = csystem_monotonic_ns()
        }
        connection.drainFinishedSlots()
        while connection.pendingOutput > 0 {
            let written = connection.outbound.withUnsafeBytes { bytes in
                csystem_send(connection.fd, bytes.baseAddress! + connection.outboundStart, connection.pendingOutput)
            }
            if written > 0 {
                connection.consumeOutbound(written)
                connection.lastWriteProgress = csystem_monotonic_ns()
                connection.lastActivity = connection.lastWriteProgress  // idle counts from the last byte either way
                continue
            }
            let error = csystem_errno()
            if written < 0 && (error == EAGAIN || error == EWOULDBLOCK) { break }
            if written < 0 && error == EINTR { continue }
            close(connection)  // EPIPE, ECONNRESET: the client is gone
            return
        }
        if connection.pendingOutput == 0 && connection.pendingSlots == 0 && connection.closeAfterResponses {
            if connection.peerClosedInput {
                close(connection)
            } else {
                beginLingering(connection)
            }
            return
        }
        if connection.pendingOutput == 0 && draining && connection.isIdle {
            close(connection)
            return
        }
        // Input held back while responses were queued can be read now.
        if connection.heldBack && canTakeRequest(connection) && !connection.closeAfterResponses {
            processInput(connection)
            return
        }
        updateInterest(connection)
    }

    /// Reads while the connection can take more requests; writes when output is pending.
    func updateInterest(_ connection: Connection) {
        let wantsInput = connection.phase == .lingering
            || (!connection.peerClosedInput && !connection.closeAfterResponses && canTakeRequest(connection))
        let wanted = (wantsInput ? UInt32(EPOLLIN.rawValue) : 0) | (connection.pendingOutput > 0 ? EventLoop.writable : 0)
        guard wanted != connection.registeredEvents else { return }
        connection.registeredEvents = wanted
        _ = csystem_epoll_modify(epollFD, connection.fd, wanted, UInt64(connection.fd))
    }

    /// Sends an error answer with `Connection: close` after the answers to the requests before it
    /// (still queued, or still on a worker: the slot keeps the order), and stops reading.
    func closeWithError(_ connection: Connection, _ response: HTTPResponse) {
        let info = Connection.RequestInfo(method: "-", path: "-", route: RequestStats.unmatchedRoute, userAgent: nil,
                                          headOnly: false, close: true, announceKeepAlive: false,
                                          startedAt: csystem_monotonic_ns())
        let sequence = connection.openSlot(info)
        connection.closeAfterResponses = true
        complete(connection, sequence: sequence, response: response)
        flush(connection)
    }

    /// RFC 9112 §9.6: half-close, then read and discard until the client closes, so that an answer
    /// sent before unread input is not destroyed by a reset.
    private func beginLingering(_ connection: Connection) {
        connection.phase = .lingering
        connection.lingerStartedAt = csystem_monotonic_ns()
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

    func close(_ connection: Connection) {
        guard self.connection(connection.fd) === connection else { return }
        connections[Int(connection.fd)] = nil
        connectionCount -= 1
        _ = csystem_epoll_remove(epollFD, connection.fd)
        Glibc.close(connection.fd)
        if connection.counted { context.releaseConnection() }
    }
}
