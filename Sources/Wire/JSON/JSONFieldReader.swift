/// Typed, optional members of one JSON object, strict about types: an absent or null member is
/// nil, a present member of another type is refused with the error `mismatch` makes from its
/// name (each caller speaks its own error vocabulary).
public struct JSONFieldReader<Failure: Error> {
    public let object: JSONObject
    private let mismatch: (String) -> Failure

    public init(_ object: JSONObject, mismatch: @escaping (String) -> Failure) {
        self.object = object
        self.mismatch = mismatch
    }

    /// The member unless absent or null.
    public func value(_ name: String) -> JSONValue? {
        guard let value = object[name], !value.isNull else { return nil }
        return value
    }

    /// The member as `extract` reads it; nil when absent, `mismatch` when `extract` says no.
    public func typed<Value>(_ name: String, _ extract: (JSONValue) -> Value?) throws(Failure) -> Value? {
        guard let value = value(name) else { return nil }
        guard let typed = extract(value) else { throw mismatch(name) }
        return typed
    }

    public func string(_ name: String) throws(Failure) -> String? { try typed(name) { $0.stringValue } }
    public func integer(_ name: String) throws(Failure) -> Int64? { try typed(name) { $0.integerValue } }
    public func bool(_ name: String) throws(Failure) -> Bool? { try typed(name) { $0.boolValue } }
    public func object(_ name: String) throws(Failure) -> JSONObject? { try typed(name) { $0.objectValue } }
    public func array(_ name: String) throws(Failure) -> [JSONValue]? { try typed(name) { $0.arrayValue } }

    /// An integer or a fraction, as a `Double`.
    public func number(_ name: String) throws(Failure) -> Double? {
        try typed(name) { value in
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
            guard let element = extract(item) else { throw mismatch(name) }
            out.append(element)
        }
        return out
    }
}
