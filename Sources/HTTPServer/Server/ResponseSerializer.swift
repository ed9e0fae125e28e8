/// Writes a response's bytes (RFC 9112 §4, §6): status line, the handler's header fields after
/// checking them, then Content-Length, Date and Connection as the server decides them.
enum ResponseSerializer {
    /// Header fields the server owns; a handler's values for these are dropped.
    private static let serverOwned = ["content-length", "date", "connection", "transfer-encoding", "keep-alive"]

    struct Framing {
        /// HEAD: headers as for GET, no body (RFC 9110 §9.3.2).
        var headOnly: Bool
        /// `Connection: close` and the connection ends after this response.
        var close: Bool
        /// HTTP/1.0 client that asked for keep-alive: say so explicitly (RFC 9112 §9.3).
        var announceKeepAlive: Bool
    }

    /// Appends the response to `out` as `RequestPipeline.finish` leaves it: a 429 or 503 with its
    /// `Retry-After`, an unsendable answer replaced by `errors`' 500, the content left out where
    /// the status or a HEAD request says so.
    /// Returns the status written: the handler's, or the 500 that replaced an unsendable answer,
    /// so that metrics and the access log count what the client received.
    @discardableResult
    static func write(_ response: HTTPResponse, framing: Framing, date: [UInt8], errors: HTTPErrorRenderer,
                      into out: inout [UInt8]) -> Int {
        let finished = RequestPipeline.finish(response, headOnly: framing.headOnly, errors: errors)
        let response = finished.response
        out.append(contentsOf: statusLine(response.status))
        for (name, value) in response.headers where !isServerOwned(name) {
            out.append(contentsOf: name.utf8)
            out.append(contentsOf: ": ".utf8)
            out.append(contentsOf: value.utf8)
            out.append(contentsOf: "\r\n".utf8)
        }
        if finished.hasContent {
            out.append(contentsOf: "Content-Length: ".utf8)
            out.append(contentsOf: String(response.body.count).utf8)
            out.append(contentsOf: "\r\n".utf8)
        }
        out.append(contentsOf: date)
        if framing.close {
            out.append(contentsOf: "Connection: close\r\n".utf8)
        } else if framing.announceKeepAlive {
            out.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        out.append(contentsOf: "\r\n".utf8)
        if finished.sendsBody { out.append(contentsOf: response.body) }
        return response.status
    }

    static let continueLine = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// The server always answers as HTTP/1.1, its highest version (RFC 9110 §6.2).
    static func statusLine(_ status: Int) -> [UInt8] {
        switch status {
        case 200: return ok
        case 204: return noContent
        default: return Array("HTTP/1.1 \(status) \(HTTPStatus.reasonPhrase(status))\r\n".utf8)
        }
    }

    private static let ok = Array("HTTP/1.1 200 OK\r\n".utf8)
    private static let noContent = Array("HTTP/1.1 204 No Content\r\n".utf8)

    private static func isServerOwned(_ name: String) -> Bool {
        serverOwned.contains { $0.equalsIgnoringASCIICase(name) }
    }
}
