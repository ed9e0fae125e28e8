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

    /// Appends the response to `out`; a handler header that is not a token name or whose value
    /// holds CR, LF or another control character turns the response into a 500, because sending it
    /// would let the value split the response.
    /// The 500 is rendered by `errors`; should that answer be invalid too, by the plain-text renderer.
    /// Every 429 and 503 leaves with `Retry-After` (RFC 9110 §10.2.3), whichever renderer or
    /// handler made it: the server adds the fallback where none was written, and leaves a written
    /// one to its author.
    static func write(_ response: HTTPResponse, framing: Framing, date: [UInt8], errors: HTTPErrorRenderer,
                      into out: inout [UInt8]) {
        let response = response.withRetryAfter(clamping: false)
        guard response.isSendable else {
            let replacement = errors(.invalidResponse)
            return write(replacement, framing: framing, date: date, errors: HTTPServerError.plainText, into: &out)
        }
        out.append(contentsOf: statusLine(response.status))
        for (name, value) in response.headers where !isServerOwned(name) {
            out.append(contentsOf: name.utf8)
            out.append(contentsOf: ": ".utf8)
            out.append(contentsOf: value.utf8)
            out.append(contentsOf: "\r\n".utf8)
        }
        let bodyAllowed = !HTTPStatus.forbidsBody(response.status)
        if bodyAllowed {
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
        if bodyAllowed && !framing.headOnly { out.append(contentsOf: response.body) }
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

extension HTTPResponse {
    /// Every header name is a token and no value holds CR, LF or another control character: sent
    /// otherwise, a value could split the response (RFC 9110 §5.5). The server answers 500 instead.
    public var isSendable: Bool {
        headers.allSatisfy { HTTPSyntax.isToken($0.0) && HTTPSyntax.isValidFieldValue($0.1) }
    }
}
