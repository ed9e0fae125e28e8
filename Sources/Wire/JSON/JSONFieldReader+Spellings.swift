/// The other spellings outside services give a value: verifyReceipt sends every value as a
/// string, Google's JSON (proto3's mapping) sends 64-bit integers as strings and timestamps as
/// RFC 3339 text, App Store V2 payloads send milliseconds with a fraction.
extension JSONFieldReader {
    /// An integer: a JSON integer, or a string of decimal digits with an optional leading minus.
    public func integerOrDigits(_ name: String) throws(Failure) -> Int64? {
        try typed(name, expected: "an integer") { value in
            if let integer = value.integerValue { return integer }
            guard let text = value.stringValue else { return nil }
            let digits = text.hasPrefix("-") ? text.utf8.dropFirst() : text.utf8[...]
            guard !digits.isEmpty, digits.count <= 19, digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
            return Int64(text)
        }
    }

    /// A boolean as JSON `true`/`false`, `"true"`/`"false"`, `"1"`/`"0"` or the numbers 1/0.
    public func boolOrSpelled(_ name: String) throws(Failure) -> Bool? {
        try typed(name, expected: "a boolean") { value in
            switch value {
            case .bool(let flag): flag
            case .integer(1), .string("1"), .string("true"): true
            case .integer(0), .string("0"), .string("false"): false
            default: nil
            }
        }
    }

    /// Milliseconds since the epoch: an integer (JSON or digits) or a number with a fraction,
    /// truncated to the millisecond.
    public func milliseconds(_ name: String) throws(Failure) -> Instant? {
        if case .number(let number)? = value(name) {
            guard number.isFinite, abs(number) < 9.0e15 else { throw refusal(name, expected: "milliseconds since the epoch") }
            return Instant(millisecondsSinceEpoch: Int64(number.rounded(.down)))
        }
        return try integerOrDigits(name).map(Instant.init(millisecondsSinceEpoch:))
    }

    /// An RFC 3339 timestamp.
    public func rfc3339(_ name: String) throws(Failure) -> Instant? {
        guard let text = try string(name) else { return nil }
        guard let instant = Instant(rfc3339: text) else { throw refusal(name, expected: "an RFC 3339 time") }
        return instant
    }

    /// A value from a closed set, by its spelling.
    public func oneOf<Value>(_ name: String, _ spellings: [String: Value]) throws(Failure) -> Value? {
        guard let text = try string(name) else { return nil }
        guard let value = spellings[text] else {
            throw refusal(name, expected: spellings.keys.sorted().joined(separator: " or "))
        }
        return value
    }
}
