/// BYTEA in libpq's text format: the hex format (`\x` then two lowercase hex digits a byte,
/// PostgreSQL "Binary Data Types", §8.4.1), written for parameters and read from results.
enum PostgresBytes {
    private static let digits = Array("0123456789abcdef".utf8)

    static func hexInput(_ bytes: [UInt8]) -> String {
        var text = [UInt8](repeating: 0, count: 2 + bytes.count * 2)
        text[0] = UInt8(ascii: "\\"); text[1] = UInt8(ascii: "x")
        for (i, byte) in bytes.enumerated() {
            text[2 + 2 * i] = digits[Int(byte >> 4)]
            text[3 + 2 * i] = digits[Int(byte & 0x0F)]
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of a hex-format value; what is not hex digits after `\x` ends the value (the
    /// connection sets `bytea_output = 'hex'`, so the server sends nothing else).
    static func fromHexOutput(_ text: UnsafeRawBufferPointer) -> [UInt8] {
        guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x") else { return [] }
        let count = (text.count - 2) / 2
        var bytes = [UInt8]()
        bytes.reserveCapacity(count)
        for i in 0..<count {
            guard let high = value(text[2 + 2 * i]), let low = value(text[3 + 2 * i]) else { break }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
