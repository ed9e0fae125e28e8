/// `host:port` to listen on; `[::1]:8080` for IPv6.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) { self.host = host; self.port = port }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Reachable from this machine only: `localhost`, `::1` or an IPv4 address in 127.0.0.0/8
    /// (RFC 1122 §3.2.1.3). Tools without credentials listen only there unless told otherwise.
    public var isLoopback: Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// Why a `host:port` text is not one.
    public struct Invalid: Error, Sendable {
        public var message: String
        init(_ message: String) { self.message = message }
    }

    /// `host:port` or `[ipv6]:port` (RFC 3986 §3.2.2 brackets an IPv6 literal).
    public init(parsing text: String) throws(Invalid) {
        let host: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw Invalid("expected [ipv6]:port")
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else {
                throw Invalid("expected host:port, e.g. 127.0.0.1:8080")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:".contains($0)) }) else {
            throw Invalid("\"\(text.prefix(80))\" has no valid host")
        }
        guard let port = UInt16(portText) else { throw Invalid("port must be 0 (any free port) to 65535") }
        self.init(host: String(host), port: port)
    }
}
