import Glibc

/// An IPv4 or IPv6 network in CIDR notation (RFC 4632 §3.1, RFC 4291 §2.3), as E30 takes them: a
/// range whose host bits are set is refused (it is most likely a typing mistake that would cover
/// other networks than meant), and a bare address is one host (/32 or /128). IPv4-mapped IPv6
/// addresses (`::ffff:192.0.2.1`) are their IPv4 address, so one range covers a client however
/// its socket names it.
package struct NetworkRange: Hashable, Sendable, CustomStringConvertible {
    /// 4 or 16 bytes, host bits zero.
    package let network: [UInt8]
    package let prefixLength: Int

    package struct Invalid: Error, Equatable, Sendable {
        package let entry: String
        package let reason: String
    }

    package init(parsing text: String) throws(Invalid) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress.bytes(String(parts[0])) else {
            throw Invalid(entry: text, reason: "not an IPv4 or IPv6 address")
        }
        let maximum = address.count * 8
        var prefix = maximum
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), parts[1].count <= 3,
                  let length = Int(parts[1]), length <= maximum else {
                throw Invalid(entry: text, reason: "the prefix length must be 0 to \(maximum)")
            }
            // An IPv4-mapped IPv6 range is the IPv4 range it maps.
            prefix = address.count == 4 && parts[0].contains(":") ? max(0, length - 96) : length
            if address.count == 4 && parts[0].contains(":") && length < 96 {
                throw Invalid(entry: text, reason: "an IPv4-mapped range needs a prefix of 96 or more")
            }
        }
        guard Self.masked(address, prefix) == address else {
            throw Invalid(entry: text, reason: "host bits are set; the network is \(Self.describe(Self.masked(address, prefix), prefix))")
        }
        network = address
        prefixLength = prefix
    }

    /// Whether the address (4 or 16 bytes, as `IPAddress.bytes` gives) is inside.
    package func contains(_ address: [UInt8]) -> Bool {
        guard address.count == network.count else { return false }
        var bits = prefixLength
        for index in network.indices where bits > 0 {
            let mask: UInt8 = bits >= 8 ? 0xff : ~(UInt8(0xff) >> bits)
            if address[index] & mask != network[index] { return false }
            bits -= 8
        }
        return true
    }

    /// The first and last address, as numbers (IPv4 in the low 32 bits), for ordered lookups.
    package var bounds: ClosedRange<UInt128> {
        let first = Self.number(network)
        let hostBits = network.count * 8 - prefixLength
        let last = hostBits == 0 ? first : first | (hostBits >= 128 ? UInt128.max : (UInt128(1) << hostBits) - 1)
        return first...last
    }

    /// An address (4 or 16 bytes) as a number.
    package static func number(_ address: [UInt8]) -> UInt128 {
        address.reduce(UInt128(0)) { $0 << 8 | UInt128($1) }
    }

    /// Whether the two share an address: of two CIDR ranges of one family, one holds the other.
    package func overlaps(_ other: NetworkRange) -> Bool {
        guard network.count == other.network.count else { return false }
        let shorter = min(prefixLength, other.prefixLength)
        return Self.masked(network, shorter) == Self.masked(other.network, shorter)
    }

    package var description: String { Self.describe(network, prefixLength) }

    private static func masked(_ address: [UInt8], _ prefix: Int) -> [UInt8] {
        address.indices.map { index in
            let bits = min(8, max(0, prefix - index * 8))
            return bits == 8 ? address[index] : address[index] & ~(UInt8(0xff) >> bits)
        }
    }

    private static func describe(_ address: [UInt8], _ prefix: Int) -> String {
        "\(IPAddress.text(address))/\(prefix)"
    }
}

/// Textual IP addresses as bytes and back (`inet_pton`, `inet_ntop`).
package enum IPAddress {
    /// 4 bytes for IPv4 (and IPv4-mapped IPv6), 16 for IPv6; nil for anything else. Zone ids
    /// (`fe80::1%eth0`) are not addresses a client sends.
    package static func bytes(_ text: some StringProtocol) -> [UInt8]? {
        if let v4 = dottedQuad(text.utf8) { return v4 }
        guard text.utf8.contains(UInt8(ascii: ":")) else { return nil }
        var v6 = [UInt8](repeating: 0, count: 16)
        guard inet_pton(AF_INET6, String(text), &v6) == 1 else { return nil }
        if v6[0..<10].allSatisfy({ $0 == 0 }) && v6[10] == 0xff && v6[11] == 0xff { return Array(v6[12..<16]) }
        return v6
    }

    /// RFC 3986 §3.2.2's `dec-octet "." dec-octet "." dec-octet "." dec-octet` (no leading zeros,
    /// as `inet_pton` takes it), read without making a C string: the common case of every request
    /// an institution route serves.
    private static func dottedQuad(_ utf8: some Collection<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(4)
        var value = 0, digits = 0, leadingZero = false
        for byte in utf8 {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, out.count < 3 else { return nil }
                out.append(UInt8(value))
                value = 0; digits = 0; leadingZero = false
            } else if byte >= 48 && byte <= 57 {
                guard !leadingZero else { return nil }
                if digits == 0 && byte == 48 { leadingZero = true }
                value = value * 10 + Int(byte - 48)
                digits += 1
                guard value <= 255 else { return nil }
            } else {
                return nil
            }
        }
        guard digits > 0, out.count == 3 else { return nil }
        out.append(UInt8(value))
        return out
    }

    package static func text(_ bytes: [UInt8]) -> String {
        var out = [CChar](repeating: 0, count: 64)
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        guard inet_ntop(family, bytes, &out, socklen_t(out.count)) != nil else { return "?" }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
