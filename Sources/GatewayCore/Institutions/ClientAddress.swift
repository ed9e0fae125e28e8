/// E30: the client's address: the connection's, or, when the connection comes from a configured
/// trusted proxy, the rightmost `X-Forwarded-For` address that is not itself a trusted proxy. No
/// other header is believed, and from an untrusted peer `X-Forwarded-For` is ignored (anyone can
/// write it).
package struct ClientAddressResolver: Sendable {
    package let trustedProxies: [NetworkRange]

    package init(trustedProxies: [NetworkRange]) { self.trustedProxies = trustedProxies }

    /// The client's address as bytes, or nil when there is none to believe (no socket, or a
    /// trusted proxy's header that does not parse).
    package func address(peer: String?, forwardedFor: [String]) -> [UInt8]? {
        guard let peer, let peerBytes = IPAddress.bytes(peer) else { return nil }
        guard isTrusted(peerBytes) else { return peerBytes }
        // Fields in order, then each field's list: the last hop appended is rightmost
        // (RFC 9110 §5.3 makes repeated fields one comma-separated list). Read from the right,
        // one hop at a time, without splitting the whole header.
        var first: [UInt8]?
        for field in forwardedFor.reversed() {
            var rest = Substring(field)
            while !rest.isEmpty {
                let comma = rest.lastIndex(of: ",")
                let hop = rest[(comma.map { rest.index(after: $0) } ?? rest.startIndex)...].trimmingSpaces()
                rest = comma.map { rest[..<$0] } ?? ""
                if hop.isEmpty && comma != nil { continue }
                guard let bytes = IPAddress.bytes(hop) else { return nil }
                if !isTrusted(bytes) { return bytes }
                first = bytes
            }
        }
        // Every hop is a trusted proxy (or there is none): the request began at the first of them.
        return first ?? peerBytes
    }

    private func isTrusted(_ address: [UInt8]) -> Bool { trustedProxies.contains { $0.contains(address) } }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return s
    }
}
