/// A JSON value (RFC 8259) as the strict parser produces it. Integers and other numbers are
/// distinct cases so that "must be an integer" checks (a JWT `exp`, a count in a request body)
/// are a pattern match, not a guess about a `Double`.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other number: a fraction, an exponent, an integer beyond 64 bits (approximate), or
    /// ±infinity for one beyond Double's range (`JSONParser`). Readers check the range they need.
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var integerValue: Int64? { if case .integer(let i) = self { i } else { nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }
    public var isNull: Bool { self == .null }
}

/// One `"name": value` pair of an object.
public struct JSONMember: Equatable, Sendable {
    public var name: String
    public var value: JSONValue

    public init(_ name: String, _ value: JSONValue) { self.name = name; self.value = value }
}

/// An object's members in the order they were written (serialising keeps that order, which the
/// JWS header `{"alg","typ","kid"}` needs), with lookup by name. Names are unique: the parser
/// refuses duplicates and `set` replaces.
public struct JSONObject: Equatable, Sendable, Sequence {
    public private(set) var members: [JSONMember] = []
    /// Built only for objects larger than `indexThreshold`: the small objects of tokens and
    /// request bodies are faster to scan than to hash.
    private var positions: [String: Int]?
    private static let indexThreshold = 12

    public init() {}

    /// Builds an object in the given order; a repeated name keeps its first position and last value.
    public init(_ members: [JSONMember]) {
        for m in members { set(m.name, m.value) }
    }

    public var count: Int { members.count }
    public var names: [String] { members.map(\.name) }

    public subscript(name: String) -> JSONValue? {
        position(of: name).map { members[$0].value }
    }

    public func contains(_ name: String) -> Bool { position(of: name) != nil }

    public mutating func set(_ name: String, _ value: JSONValue) {
        if let p = position(of: name) {
            members[p].value = value
            return
        }
        members.append(JSONMember(name, value))
        if positions != nil {
            positions![name] = members.count - 1
        } else if members.count > Self.indexThreshold {
            positions = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1.name, $0) })
        }
    }

    private func position(of name: String) -> Int? {
        if let positions { return positions[name] }
        return members.firstIndex { $0.name == name }
    }

    public func makeIterator() -> IndexingIterator<[JSONMember]> { members.makeIterator() }

    /// Objects are unordered (RFC 8259 §4): equal when they hold the same names with equal values.
    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.count == b.count && a.members.allSatisfy { b[$0.name] == $0.value }
    }
}
