/// A strict RFC 8259 parser: exactly one value, the four whitespace characters of §2, no
/// comments, no trailing commas, no BOM, no duplicate member names (compared after unescaping),
/// strings that are valid UTF-8 with paired surrogate escapes, bounded size and depth.
public struct JSONParser: Sendable {
    public var limits: JSONLimits

    public init(limits: JSONLimits = .standard) { self.limits = limits }

    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(bytes: Array(text.utf8))
    }

    public func parse(bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        guard bytes.count <= limits.maxBytes else { throw JSONParseError(.tooLarge, at: 0) }
        var reader = JSONReader(bytes: bytes, maxDepth: limits.maxDepth)
        reader.skipWhitespace()
        let value = try reader.readValue(depth: 0)
        reader.skipWhitespace()
        guard reader.atEnd else { throw JSONParseError(.trailingCharacters, at: reader.position) }
        return value
    }
}

extension JSONValue {
    /// Parses with the standard limits.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try JSONParser().parse(text)
    }

    public static func parse(bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try JSONParser().parse(bytes: bytes)
    }
}

/// The cursor over one text. RFC 8259 grammar sections are cited per production.
struct JSONReader {
    let bytes: [UInt8]
    let maxDepth: Int
    private(set) var position = 0

    init(bytes: [UInt8], maxDepth: Int) { self.bytes = bytes; self.maxDepth = maxDepth }

    var atEnd: Bool { position >= bytes.count }

    private func fail(_ kind: JSONParseError.Kind) -> JSONParseError { JSONParseError(kind, at: position) }

    private func peek() throws(JSONParseError) -> UInt8 {
        guard position < bytes.count else { throw fail(.unexpectedEnd) }
        return bytes[position]
    }

    // §2: ws = *( %x20 / %x09 / %x0A / %x0D )
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8) throws(JSONParseError) {
        guard try peek() == byte else { throw fail(.unexpectedCharacter) }
        position += 1
    }

    private mutating func expectLiteral(_ literal: String) throws(JSONParseError) {
        for c in literal.utf8 { try expect(c) }
    }

    // §3: value = false / null / true / object / array / number / string
    mutating func readValue(depth: Int) throws(JSONParseError) -> JSONValue {
        switch try peek() {
        case UInt8(ascii: "{"): return .object(try readObject(depth: depth + 1))
        case UInt8(ascii: "["): return .array(try readArray(depth: depth + 1))
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        default: throw fail(.unexpectedCharacter)
        }
    }

    // §4: object = begin-object [ member *( value-separator member ) ] end-object
    private mutating func readObject(depth: Int) throws(JSONParseError) -> JSONObject {
        guard depth <= maxDepth else { throw fail(.tooDeep) }
        position += 1
        var object = JSONObject()
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") { position += 1; return object }
        while true {
            skipWhitespace()
            let nameOffset = position
            guard try peek() == UInt8(ascii: "\"") else { throw fail(.unexpectedCharacter) }
            let name = try readString()
            // RFC 8259 §4 leaves duplicate names' meaning to implementations; RFC 7515 §5.2 step 4
            // and RFC 7519 §4 ask a JWT verifier to reject them, and so do we everywhere.
            guard !object.contains(name) else { throw JSONParseError(.duplicateName(name), at: nameOffset) }
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            object.set(name, try readValue(depth: depth))
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return object
            default: throw fail(.unexpectedCharacter)
            }
        }
    }

    // §5: array = begin-array [ value *( value-separator value ) ] end-array
    private mutating func readArray(depth: Int) throws(JSONParseError) -> [JSONValue] {
        guard depth <= maxDepth else { throw fail(.tooDeep) }
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") { position += 1; return elements }
        while true {
            skipWhitespace()
            elements.append(try readValue(depth: depth))
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return elements
            default: throw fail(.unexpectedCharacter)
            }
        }
    }

    // §6: number = [ minus ] int [ frac ] [ exp ]
    private mutating func readNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard try isDigit(peek()) else { throw fail(.invalidNumber) }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1 // int = zero / ( digit1-9 *DIGIT ): no leading zeros
        } else {
            skipDigits()
        }
        var isInteger = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw fail(.invalidNumber) }
            skipDigits()
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else { throw fail(.invalidNumber) }
            skipDigits()
        }
        let lexeme = String(decoding: bytes[start..<position], as: UTF8.self)
        // RFC 8259 §6 lets a parser limit range and precision. A number past the limits is kept,
        // not refused: an integer beyond 64 bits is an approximate `.number` (so a field that
        // must be an integer refuses it), one beyond Double's range is ±infinity. Refusing it
        // would fail a whole body over a field nobody reads (http-api.md: unknown fields are
        // ignored); every field that is read checks its own type and range.
        if isInteger, let value = Int64(lexeme) { return .integer(value) }
        guard let value = Double(lexeme) else { throw JSONParseError(.invalidNumber, at: start) }
        return .number(value)
    }

    private func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }

    // §7: string = quotation-mark *char quotation-mark
    mutating func readString() throws(JSONParseError) -> String {
        let start = position
        position += 1
        // Most strings (names, ids, paths) hold no escape: take them as one slice.
        let run = position
        // Scanned through the buffer: certificate chains and nested JWSs are long strings.
        position = bytes.withUnsafeBufferPointer { buffer in
            var end = run
            while end < buffer.count {
                let c = buffer[end]
                if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 { break }
                end += 1
            }
            return end
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "\"") {
            guard let s = String(validating: bytes[run..<position], as: UTF8.self) else {
                throw JSONParseError(.invalidUTF8, at: start)
            }
            position += 1
            return s
        }
        var utf8 = Array(bytes[run..<position])
        while true {
            let c = try peek()
            switch c {
            case UInt8(ascii: "\""):
                position += 1
                guard let s = String(validating: utf8, as: UTF8.self) else {
                    throw JSONParseError(.invalidUTF8, at: start)
                }
                return s
            case UInt8(ascii: "\\"):
                position += 1
                try readEscape(into: &utf8)
            case 0x00..<0x20:
                throw fail(.unescapedControlCharacter)
            default:
                utf8.append(c)
                position += 1
            }
        }
    }

    private mutating func readEscape(into utf8: inout [UInt8]) throws(JSONParseError) {
        let c = try peek()
        position += 1
        let simple: UInt8?
        switch c {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default: position -= 1; throw fail(.invalidEscape)
        }
        if let simple { utf8.append(simple); return }
        let escapeStart = position - 2
        let unit = try readHex4()
        var scalarValue = UInt32(unit)
        if (0xD800...0xDBFF).contains(unit) {
            // A high surrogate must be followed at once by an escaped low surrogate.
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                  bytes[position + 1] == UInt8(ascii: "u") else {
                throw JSONParseError(.unpairedSurrogate, at: escapeStart)
            }
            position += 2
            let low = try readHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw JSONParseError(.unpairedSurrogate, at: escapeStart) }
            scalarValue = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(unit) {
            throw JSONParseError(.unpairedSurrogate, at: escapeStart)
        }
        guard let scalar = Unicode.Scalar(scalarValue) else { throw JSONParseError(.invalidEscape, at: escapeStart) }
        utf8.append(contentsOf: UTF8.encode(scalar)!)
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            let c = try peek()
            let digit: UInt16
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt16(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt16(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt16(c - UInt8(ascii: "A") + 10)
            default: throw fail(.invalidEscape)
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }
}
