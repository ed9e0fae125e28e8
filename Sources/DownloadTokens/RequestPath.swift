import Wire

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
        let path = requestTarget.utf8.prefix { $0 != UInt8(ascii: "?") }
        guard !path.contains(UInt8(ascii: "#")), let decoded = PercentDecoding.decode(bytes: path) else {
            throw .pathRefused
        }
        guard decoded.first == UInt8(ascii: "/") else { throw .pathRefused }
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
