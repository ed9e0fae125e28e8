import Glibc

/// Which client a source address belongs to, for per-client limits (fairness). An
/// IPv4 address is a client of its own. An IPv6 host is normally given a whole /64 (RFC 4291
/// §2.5.1 interface identifiers; RFC 6177), so its 2^64 addresses would each get a fresh share:
/// the /64 is the client. An IPv4-mapped address (RFC 4291 §2.5.5.2, from a dual-stack socket)
/// is its IPv4 address.
public enum ClientKey {
    public static func of(_ address: String) -> String {
        guard address.contains(":") else { return address }
        var bytes = [UInt8](repeating: 0, count: 16)
        guard inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
            return bytes[12..<16].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}
