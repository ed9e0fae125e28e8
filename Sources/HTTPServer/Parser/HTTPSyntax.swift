/// Character classes of RFC 9110 §5.6 and RFC 9112.
enum HTTPSyntax {
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let colon = UInt8(ascii: ":")

    /// tchar (RFC 9110 §5.6.2).
    @inline(__always)
    static func isTokenCharacter(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// field-vchar, SP and HTAB (RFC 9110 §5.5): no CR, LF, NUL or other controls.
    @inline(__always)
    static func isFieldValueCharacter(_ b: UInt8) -> Bool {
        b == tab || (b >= 0x20 && b != 0x7F)
    }

    /// The request-target's characters: visible ASCII only (RFC 9112 §3.2, RFC 3986).
    @inline(__always)
    static func isTargetCharacter(_ b: UInt8) -> Bool { b > 0x20 && b < 0x7F }

    static func isToken(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(isTokenCharacter)
    }

    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenCharacter)
    }

    /// A header value a handler may send: no CR, LF or other controls (response splitting).
    static func isValidFieldValue(_ text: String) -> Bool {
        text.utf8.allSatisfy(isFieldValueCharacter)
    }
}
