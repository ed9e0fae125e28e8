/// The path an edge asks about (tokens.md step 5), from `X-Original-URI`.
enum RequestPath {
    static let allowedMethods: Set<String> = ["GET", "HEAD"]

    /// Origin-form only (RFC 9112 §3.2.1): starts with `/`. The query (from the first `?`) is
    /// ignored: it may carry the token itself and never selects a file. A `#` is refused (a
    /// fragment is never sent, so it can only be an attack on a path matcher).
    /// The path is percent-decoded exactly once (RFC 3986 §2.1); a `%` not followed by two hex
    /// digits is refused. After decoding, a `..` segment, `//`, NUL or backslash is refused,
    /// whether it was written plainly or encoded (`%2e%2e`, `%2f%2f`, `%00`, `%5c`).
    static func decode(requestTarget: String) throws(TokenFailure) -> [UInt8] {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(requestTarget.utf8.count)
        var pending = 0  // hex digits still expected after a `%`
        var high: UInt8 = 0
        for byte in requestTarget.utf8 {
            if pending == 0 && byte == UInt8(ascii: "?") { break }
            if pending > 0 {
                guard let nibble = Hex.nibble(byte) else { throw .pathRefused }
                if pending == 2 { high = nibble } else { decoded.append(high << 4 | nibble) }
                pending -= 1
            } else if byte == UInt8(ascii: "%") {
                pending = 2
            } else {
                guard byte != UInt8(ascii: "#") else { throw .pathRefused }
                decoded.append(byte)
            }
        }
        guard pending == 0, decoded.first == UInt8(ascii: "/") else { throw .pathRefused }
        // After decoding: no NUL or backslash, no `..` segment, no empty segment but a trailing one.
        var segmentStart = 1
        for i in 1...decoded.count {
            let atEnd = i == decoded.count
            let byte = atEnd ? UInt8(ascii: "/") : decoded[i]
            guard byte != 0, byte != UInt8(ascii: "\\") else { throw .pathRefused }
            guard byte == UInt8(ascii: "/") else { continue }
            let length = i - segmentStart
            if length == 0 && !atEnd { throw .pathRefused }
            if length == 2 && decoded[segmentStart] == UInt8(ascii: ".") && decoded[segmentStart + 1] == UInt8(ascii: ".") {
                throw .pathRefused
            }
            segmentStart = i + 1
        }
        return decoded
    }
}

/// RFC 3986 §2.1 percent-decoding of bytes; `+` stays `+` (that convention is for forms).
enum PercentDecoding {
    static func decodeOnce(_ bytes: some Collection<UInt8>) -> [UInt8]? {
        let input = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity(input.count)
        var i = 0
        while i < input.count {
            if input[i] == UInt8(ascii: "%") {
                guard i + 2 < input.count,
                      let pair = Hex.decode(String(decoding: input[(i + 1)...(i + 2)], as: UTF8.self)) else {
                    return nil
                }
                out.append(pair[0])
                i += 3
            } else {
                out.append(input[i])
                i += 1
            }
        }
        return out
    }
}
