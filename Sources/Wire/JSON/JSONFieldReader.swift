/// Typed, optional members of one JSON object, strict about types: an absent or null member is
/// nil, a present member of another type is refused with the caller's error, which names the
/// member by its full path (`items[3].price`) and says what was expected (each caller speaks its
/// own error vocabulary). Readers of nested objects and arrays of objects carry the path on.
public struct JSONFieldReader<Failure: Error> {
    public let object: JSONObject
    /// Where this object sits in the body (`""` at the top level).
    public let path: String
    private let invalid: (_ path: String, _ expected: String) -> Failure

    public init(_ object: JSONObject, path: String = "", invalid: @escaping (_ path: String, _ expected: String) -> Failure) {
        self.object = object
        self.path = path
        self.invalid = invalid
    }

    /// A reader whose refusals name the member only (`mismatch` gets its path).
    public init(_ object: JSONObject, mismatch: @escaping (String) -> Failure) {
        self.init(object) { path, _ in mismatch(path) }
    }

    /// The member's full path.
    public func name(_ name: String) -> String { path.isEmpty ? name : path + "." + name }

    /// The refusal of member `name`, which is not `expected`.
    public func refusal(_ name: String, expected: String) -> Failure { invalid(self.name(name), expected) }

    /// The member unless absent or null.
    public func value(_ name: String) -> JSONValue? {
        guard let value = object[name], !value.isNull else { return nil }
        return value
    }

    public func has(_ name: String) -> Bool { value(name) != nil }

    /// The member as `extract` reads it; nil when absent, refused when `extract` says no.
    public func typed<Value>(_ name: String, expected: String = "another JSON type",
                             _ extract: (JSONValue) -> Value?) throws(Failure) -> Value? {
        guard let value = value(name) else { return nil }
        guard let typed = extract(value) else { throw refusal(name, expected: expected) }
        return typed
    }

    public func string(_ name: String) throws(Failure) -> String? { try typed(name, expected: "a string") { $0.stringValue } }
    public func integer(_ name: String) throws(Failure) -> Int64? { try typed(name, expected: "an integer") { $0.integerValue } }
    public func bool(_ name: String) throws(Failure) -> Bool? { try typed(name, expected: "a boolean") { $0.boolValue } }
    public func array(_ name: String) throws(Failure) -> [JSONValue]? { try typed(name, expected: "an array") { $0.arrayValue } }

    /// A nested object, read with this reader's errors and its path.
    public func object(_ name: String) throws(Failure) -> JSONFieldReader? {
        try typed(name, expected: "an object") { $0.objectValue }.map { JSONFieldReader($0, path: self.name(name), invalid: invalid) }
    }

    /// An array of objects (an absent member is empty), each read at `name[i]`.
    public func objects(_ name: String) throws(Failure) -> [JSONFieldReader] {
        var out: [JSONFieldReader] = []
        for (index, item) in (try array(name) ?? []).enumerated() {
            let at = self.name(name) + "[\(index)]"
            guard let object = item.objectValue else { throw invalid(at, "an object") }
            out.append(JSONFieldReader(object, path: at, invalid: invalid))
        }
        return out
    }

    /// An integer or a fraction, as a `Double`.
    public func number(_ name: String) throws(Failure) -> Double? {
        try typed(name, expected: "a number") { value in
            switch value {
            case .integer(let integer): Double(integer)
            case .number(let number): number
            default: nil
            }
        }
    }

    /// Every element of an array member read by `extract` (an absent member is empty); one
    /// element of another type refuses the member.
    public func elements<Element>(_ name: String, _ extract: (JSONValue) -> Element?) throws(Failure) -> [Element] {
        var out: [Element] = []
        for item in try array(name) ?? [] {
            guard let element = extract(item) else { throw refusal(name, expected: "an array of another type") }
            out.append(element)
        }
        return out
    }
}
