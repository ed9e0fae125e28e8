/// FNV-1a, 64 bits: a hash that is the same in every process and on every run (Swift's `Hasher`
/// is seeded per process), for validators such as entity tags that clients keep across restarts
/// and that several gateway processes must agree on. Not for anything an attacker must not
/// collide on purpose.
public struct FNV1a: Sendable, Equatable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    public mutating func combine(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* Self.prime
    }

    public mutating func combine<Bytes: Sequence<UInt8>>(bytes: Bytes) {
        for byte in bytes { combine(byte) }
    }

    /// The integer's eight bytes, little end first.
    public mutating func combine(_ integer: UInt64) {
        var rest = integer
        for _ in 0..<8 {
            combine(UInt8(truncatingIfNeeded: rest))
            rest >>= 8
        }
    }

    /// A string's UTF-8 and then its length, so that ("ab", "c") and ("a", "bc") differ.
    public mutating func combine(_ text: String) {
        combine(bytes: text.utf8)
        combine(UInt64(text.utf8.count))
    }

    /// Sixteen lowercase hex digits.
    public var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
