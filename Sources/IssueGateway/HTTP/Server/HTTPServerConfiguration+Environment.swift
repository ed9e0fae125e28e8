/// Reading the server's part of the configuration from the environment (http-api.md, Configuration).
extension HTTPServerConfiguration {
    enum EnvironmentError: Error, Equatable, CustomStringConvertible {
        case invalid(variable: String, value: String, expected: String)

        var description: String {
            switch self {
            case let .invalid(variable, value, expected): "\(variable)=\(value): expected \(expected)"
            }
        }
    }

    /// Applies `ISSUE_GATEWAY_LISTEN` (`host:port`, IPv6 as `[::1]:8080`) and `ISSUE_GATEWAY_THREADS`
    /// (event loops, 1–256); absent variables keep the current values.
    mutating func apply(environment: [String: String]) throws {
        if let listen = environment["ISSUE_GATEWAY_LISTEN"] {
            guard let (host, port) = HTTPServerConfiguration.parseListen(listen) else {
                throw EnvironmentError.invalid(variable: "ISSUE_GATEWAY_LISTEN", value: listen, expected: "host:port")
            }
            self.host = host
            self.port = port
        }
        if let text = environment["ISSUE_GATEWAY_THREADS"] {
            guard let threads = Int(text), (1...256).contains(threads) else {
                throw EnvironmentError.invalid(variable: "ISSUE_GATEWAY_THREADS", value: text, expected: "1 to 256")
            }
            self.threads = threads
        }
    }

    /// `127.0.0.1:8080`, `[::1]:8080`, `0.0.0.0:0`; nil for anything else.
    static func parseListen(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        guard let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            return nil  // an IPv6 literal must be bracketed
        }
        return host.isEmpty ? nil : (host, port)
    }
}
