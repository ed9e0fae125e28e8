/// A JSON string literal (RFC 8259 §7): quotes, backslashes and control characters escaped,
/// everything else copied as UTF-8 in runs. Shared by the JSON serialiser and the HTTP server's
/// response writer.
public enum JSONString {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    public static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for (i, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
                appendEscape(byte, to: &out)
                runStart = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x22: out.append(0x22)
        case 0x5C: out.append(0x5C)
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        default:
            out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                    hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]])
        }
    }
}
