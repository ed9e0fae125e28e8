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
        let raw = Array(requestTarget.utf8)
        let pathBytes = raw.prefix { $0 != UInt8(ascii: "?") }
        guard pathBytes.first == UInt8(ascii: "/"), !pathBytes.contains(UInt8(ascii: "#")) else { throw .pathRefused }
        guard let decoded = PercentDecoding.decodeOnce(pathBytes) else { throw .pathRefused }
        guard !decoded.contains(0), !decoded.contains(UInt8(ascii: "\\")) else { throw .pathRefused }
        let segments = decoded.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        // Segment 0 is the empty string before the leading slash; any later empty one is a `//`
        // (the last one may be empty: a trailing slash).
        for (i, segment) in segments.enumerated() {
            if segment.elementsEqual("..".utf8) { throw .pathRefused }
            if i > 0, i < segments.count - 1, segment.isEmpty { throw .pathRefused }
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
