
/// An append-only JSON writer into `[UInt8]`, for rendering responses without JSONEncoder.
///
/// Commas are placed automatically: call `key` before each member of an object, and values,
/// objects and arrays in order. The writer does not check nesting; callers write well-formed shapes.
public struct JSONWriter: Sendable {

    public private(set) var bytes: [UInt8]
    private var needsComma = false

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    public mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ value: String) { separate(); appendQuoted(value); needsComma = true }
    public mutating func int(_ value: Int) { separate(); bytes.append(contentsOf: String(value).utf8); needsComma = true }
    public mutating func bool(_ value: Bool) { raw(value ? "true" : "false") }
    public mutating func null() { raw("null") }

    /// Finite numbers in Swift's shortest round-trip form; NaN and infinities, which JSON cannot
    /// represent (RFC 8259 §6), become null.
    public mutating func double(_ value: Double) {
        guard value.isFinite else { return null() }
        raw(value == value.rounded(.towardZero) && abs(value) < 1e15 ? String(Int64(value)) : String(value))
    }

    /// `"name": value` shorthands.
    public mutating func field(_ name: String, _ value: String) { key(name); string(value) }
    public mutating func field(_ name: String, _ value: Int) { key(name); int(value) }
    public mutating func field(_ name: String, _ value: Bool) { key(name); bool(value) }
    public mutating func field(_ name: String, _ value: String?) {
        key(name)
        if let value { string(value) } else { null() }
    }

    /// An object whose members `body` writes.
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        beginObject()
        body(&self)
        endObject()
    }

    /// An array whose elements `body` writes.
    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        beginArray()
        body(&self)
        endArray()
    }

    /// A value rendered earlier (well-formed JSON), for responses that reuse unchanging parts.
    public mutating func rawValue(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    /// Members rendered earlier (`"a":1,"b":2`, no braces) inside the object being written.
    public mutating func members(_ json: [UInt8]) {
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
    private mutating func appendQuoted(_ text: String) { JSONString.appendQuoted(text, to: &bytes) }
}
