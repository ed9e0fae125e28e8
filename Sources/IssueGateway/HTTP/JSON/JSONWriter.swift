/// An append-only JSON writer into `[UInt8]`, for rendering responses without JSONEncoder.
///
/// Commas are placed automatically: call `key` before each member of an object, and values,
/// objects and arrays in order. The writer does not check nesting; callers write well-formed shapes.
struct JSONWriter: Sendable {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    private(set) var bytes: [UInt8]
    private var needsComma = false

    init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func string(_ value: String) { separate(); appendQuoted(value); needsComma = true }
    mutating func int(_ value: Int) { separate(); bytes.append(contentsOf: String(value).utf8); needsComma = true }
    mutating func bool(_ value: Bool) { raw(value ? "true" : "false") }
    mutating func null() { raw("null") }

    /// Finite numbers in Swift's shortest round-trip form; NaN and infinities, which JSON cannot
    /// represent (RFC 8259 §6), become null.
    mutating func double(_ value: Double) {
        guard value.isFinite else { return null() }
        raw(value == value.rounded(.towardZero) && abs(value) < 1e15 ? String(Int64(value)) : String(value))
    }

    /// `"name": value` shorthands.
    mutating func field(_ name: String, _ value: String) { key(name); string(value) }
    mutating func field(_ name: String, _ value: Int) { key(name); int(value) }
    mutating func field(_ name: String, _ value: Bool) { key(name); bool(value) }
    mutating func field(_ name: String, _ value: String?) {
        key(name)
        if let value { string(value) } else { null() }
    }

    /// An object whose members `body` writes.
    mutating func object(_ body: (inout JSONWriter) -> Void) {
        beginObject()
        body(&self)
        endObject()
    }

    /// An array whose elements `body` writes.
    mutating func array(_ body: (inout JSONWriter) -> Void) {
        beginArray()
        body(&self)
        endArray()
    }

    /// A value rendered earlier (well-formed JSON), for responses that reuse unchanging parts.
    mutating func rawValue(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    /// Members rendered earlier (`"a":1,"b":2`, no braces) inside the object being written.
    mutating func members(_ json: [UInt8]) {
        guard !json.isEmpty else { return }
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    private mutating func raw(_ text: String) {
        separate()
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// RFC 8259 §7: quotation mark, reverse solidus and the control characters U+0000–U+001F
    /// must be escaped; everything else is copied as UTF-8.
    private mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for (i, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
                appendEscape(byte)
                runStart = i + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x22: bytes.append(0x22)
        case 0x5C: bytes.append(0x5C)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                      JSONWriter.hexDigits[Int(byte >> 4)], JSONWriter.hexDigits[Int(byte & 0x0F)]])
        }
    }
}
