/// Base64url without padding (RFC 4648 §5, as RFC 7515 §2 uses it), strict both ways:
/// decoding refuses `=`, `+`, `/`, whitespace, a length of 1 mod 4 and non-canonical trailing
/// bits, so each byte string has exactly one accepted spelling (no token malleability).
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let decodeTable: [UInt8] = {
        var t = [UInt8](repeating: 0xff, count: 256)
        for (i, c) in alphabet.enumerated() { t[Int(c)] = UInt8(i) }
        return t
    }()

    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let input = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity((input.count * 4 + 2) / 3)
        var i = 0
        while i + 3 <= input.count {
            let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
            out.append(alphabet[Int(n >> 18 & 63)]); out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)]); out.append(alphabet[Int(n & 63)])
            i += 3
        }
        switch input.count - i {
        case 1:
            let n = UInt32(input[i]) << 16
            out.append(alphabet[Int(n >> 18 & 63)]); out.append(alphabet[Int(n >> 12 & 63)])
        case 2:
            let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8
            out.append(alphabet[Int(n >> 18 & 63)]); out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)])
        default: break
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func decode(_ text: String) -> [UInt8]? { decode(utf8: Array(text.utf8)) }

    public static func decode(utf8 chars: some Collection<UInt8>) -> [UInt8]? {
        if let decoded = chars.withContiguousStorageIfAvailable({ decode(contiguous: $0) }) { return decoded }
        return Array(chars).withUnsafeBufferPointer { decode(contiguous: $0) }
    }

    /// Four characters at a time into a buffer of the exact decoded length: a JWS from Apple
    /// carries its certificate chain and nested JWSs, tens of kilobytes per notification.
    private static func decode(contiguous chars: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let remainder = chars.count % 4
        guard remainder != 1 else { return nil }
        let whole = chars.count - remainder
        let outputCount = whole / 4 * 3 + (remainder == 0 ? 0 : remainder - 1)
        return decodeTable.withUnsafeBufferPointer { table -> [UInt8]? in
            var valid = true
            let out = [UInt8](unsafeUninitializedCapacity: outputCount) { buffer, initialized in
                var i = 0, o = 0
                while i < whole {
                    let a = table[Int(chars[i])], b = table[Int(chars[i + 1])]
                    let c = table[Int(chars[i + 2])], d = table[Int(chars[i + 3])]
                    // Valid characters map below 64 and every other byte to 0xff: one check covers the four.
                    guard (a | b | c | d) & 0xc0 == 0 else { valid = false; return }
                    let n = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    buffer[o] = UInt8(truncatingIfNeeded: n >> 16)
                    buffer[o + 1] = UInt8(truncatingIfNeeded: n >> 8)
                    buffer[o + 2] = UInt8(truncatingIfNeeded: n)
                    i += 4; o += 3
                }
                if remainder > 0 {
                    var n: UInt32 = 0
                    for k in 0..<remainder {
                        let v = table[Int(chars[whole + k])]
                        guard v != 0xff else { valid = false; return }
                        n = n << 6 | UInt32(v)
                    }
                    // RFC 4648 §3.5: the pad bits of the last character must be zero.
                    if remainder == 2 {
                        guard n & 0xf == 0 else { valid = false; return }
                        buffer[o] = UInt8(truncatingIfNeeded: n >> 4)
                    } else {
                        guard n & 0x3 == 0 else { valid = false; return }
                        buffer[o] = UInt8(truncatingIfNeeded: n >> 10)
                        buffer[o + 1] = UInt8(truncatingIfNeeded: n >> 2)
                    }
                }
                initialized = outputCount
            }
            return valid ? out : nil
        }
    }
}
