/// The primitives of the packed encodings: unsigned LEB128 varints (as Protocol Buffers write
/// them, "Encoding: Base 128 Varints"), zigzag for signed values, strings length-prefixed UTF-8.
struct PackedWriter {
    private(set) var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Zigzag: small magnitudes of either sign take few bytes (−1 is 1, 1 is 2).
    mutating func signed(_ value: Int64) { varint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    mutating func string(_ value: String) {
        varint(UInt64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }
}

/// A packed value that this gateway cannot have written (cut short, an unknown version).
public struct PackingError: Error {
    public var detail: String
}

struct PackedReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func byte() throws(PackingError) -> UInt8 {
        guard offset < bytes.count else { throw PackingError(detail: "cut short") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func varint() throws(PackingError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64, shift < 63 || next <= 1 else { throw PackingError(detail: "varint too long") }
            value |= UInt64(next & 0x7F) << shift
            if next < 0x80 { return value }
            shift += 7
        }
    }

    mutating func signed() throws(PackingError) -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// A count or index that must fit what follows (at most `limit`).
    mutating func count(atMost limit: Int) throws(PackingError) -> Int {
        let raw = try varint()
        guard raw <= UInt64(limit) else { throw PackingError(detail: "count \(raw) beyond \(limit)") }
        return Int(raw)
    }

    mutating func string() throws(PackingError) -> String {
        let length = try varint()
        guard length <= UInt64(bytes.count - offset) else { throw PackingError(detail: "cut short") }
        let start = offset
        offset += Int(length)
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }
}
