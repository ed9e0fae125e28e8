/// Percent-decoding of URI components, exactly once (RFC 3986 §2.1): the edge's request path and
/// token parameter (tokens.md step 5), and the HTTP server's path parameters and query.
public enum PercentDecoding {
    /// The bytes with every `%XX` decoded, or nil when a `%` is not followed by two hex digits.
    /// `plusIsSpace` reads `+` as a space, the form-encoding convention of query strings; paths
    /// and tokens keep `+` as it is.
    /// Inlinable, like `decode(_:plusIsSpace:)`: called across modules with concrete types, it is
    /// specialized there instead of walking the bytes through generic witnesses (BENCHMARKS.md).
    @inlinable
    public static func decode(bytes: some Collection<UInt8>, plusIsSpace: Bool = false) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var pending = 0  // hex digits still expected after a `%`
        var high: UInt8 = 0
        for byte in bytes {
            if pending > 0 {
                guard let nibble = Hex.nibble(byte) else { return nil }
                if pending == 2 { high = nibble } else { out.append(high << 4 | nibble) }
                pending -= 1
            } else if byte == UInt8(ascii: "%") {
                pending = 2
            } else {
                out.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            }
        }
        return pending == 0 ? out : nil
    }

    /// The decoded text, or nil when an escape is malformed or the bytes are not UTF-8.
    @inlinable
    public static func decode(_ text: some StringProtocol, plusIsSpace: Bool = false) -> String? {
        let utf8 = text.utf8
        if !utf8.contains(UInt8(ascii: "%")) && !(plusIsSpace && utf8.contains(UInt8(ascii: "+"))) {
            return String(text)
        }
        return decode(bytes: utf8, plusIsSpace: plusIsSpace).flatMap { String(validating: $0, as: UTF8.self) }
    }
}
