/// RFC 9112 §3.2: a Host field value must be a valid `uri-host [ ":" port ]` (RFC 3986 §3.2.2,
/// §3.2.3), or empty; anything else (`u@evil`, `a b/c`) is a 400. Checked on bytes, no decoding.
enum HostAuthority {
    static func isValid(_ value: String) -> Bool {
        var bytes = Substring(value).utf8[...]
        if bytes.first == UInt8(ascii: "[") {
            // IP-literal: an IPv6 address or IPvFuture, loosely: hex digits, ':', '.', and 'v'.
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let inner = bytes[bytes.index(after: bytes.startIndex)..<close]
            guard !inner.isEmpty, inner.allSatisfy(isIPLiteralCharacter) else { return false }
            bytes = bytes[bytes.index(after: close)...]
        } else {
            let end = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex
            guard isRegName(bytes[..<end]) else { return false }
            bytes = bytes[end...]
        }
        guard let colon = bytes.first else { return true }
        // port = *DIGIT
        return colon == UInt8(ascii: ":") && bytes.dropFirst().allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// reg-name = *( unreserved / pct-encoded / sub-delims ), which also covers IPv4 addresses.
    private static func isRegName(_ bytes: Substring.UTF8View.SubSequence) -> Bool {
        var pending = 0
        for b in bytes {
            if pending > 0 {
                guard isHexDigit(b) else { return false }
                pending -= 1
            } else if b == UInt8(ascii: "%") {
                pending = 2
            } else if !isUnreservedOrSubDelim(b) {
                return false
            }
        }
        return pending == 0
    }

    private static func isUnreservedOrSubDelim(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "f"))
    }

    private static func isIPLiteralCharacter(_ b: UInt8) -> Bool {
        isHexDigit(b) || b == UInt8(ascii: ":") || b == UInt8(ascii: ".") || b == UInt8(ascii: "v") || b == UInt8(ascii: "V")
    }
}
