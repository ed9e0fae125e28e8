/// Compact JSON output (RFC 8259): members in their stored order, no insignificant whitespace,
/// strings escaped per §7 (quote, backslash and control characters; everything else as UTF-8).
extension JSONValue {
    public var serialized: String {
        var out: [UInt8] = []
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    public var serializedBytes: [UInt8] {
        var out: [UInt8] = []
        write(to: &out)
        return out
    }

    func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .integer(let i): out.append(contentsOf: String(i).utf8)
        // JSON has no spelling for infinities or NaN; the parser never yields them.
        case .number(let d): out.append(contentsOf: (d.isFinite ? "\(d)" : "null").utf8)
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, e) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                e.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (i, m) in object.members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(m.name, to: &out)
                out.append(UInt8(ascii: ":"))
                m.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeString(_ s: String, to out: inout [UInt8]) { JSONString.appendQuoted(s, to: &out) }
}
