/// A JSON leaf value, used for the extra members of an error body.
public enum JSONScalar: Sendable, Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
}

extension JSONWriter {
    public mutating func value(_ scalar: JSONScalar) {
        switch scalar {
        case .string(let s): string(s)
        case .int(let i): int(i)
        case .double(let d): double(d)
        case .bool(let b): bool(b)
        case .null: null()
        }
    }
}
