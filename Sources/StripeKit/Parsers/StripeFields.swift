import Wire

/// Typed reads of one Stripe object's fields, strict about types, with the field's full path in
/// every error. A JSON `null` counts as absent (Stripe sends `null` for unset fields).
public struct StripeFields: Sendable {
    public let object: JSONObject
    let path: String

    public init(_ object: JSONObject, path: String = "") { self.object = object; self.path = path }

    /// A body that must be a JSON object (the strict parser: RFC 8259, no duplicate names), within
    /// the parsers' size limit.
    public static func parse(_ body: [UInt8], limit: Int = StripeParserLimits.maximumBodyBytes) throws(StripeParseError) -> StripeFields {
        guard body.count <= limit else { throw .tooLarge(bytes: body.count, limit: limit) }
        let value: JSONValue
        do {
            value = try JSONParser(limits: JSONLimits(maxBytes: limit, maxDepth: JSONLimits.standard.maxDepth)).parse(bytes: body)
        } catch {
            throw .notJSON("malformed JSON: \(error)")
        }
        guard case .object(let fields) = value else { throw .notJSON("the top level is not an object") }
        return StripeFields(fields)
    }

    func name(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    private var reader: JSONFieldReader<StripeParseError> {
        JSONFieldReader(object) { [path] key in
            .invalidField(path.isEmpty ? key : path + "." + key, expected: "another JSON type")
        }
    }

    public func string(_ key: String) throws(StripeParseError) -> String? {
        guard let value = reader.value(key) else { return nil }
        guard case .string(let s) = value else { throw .invalidField(name(key), expected: "a string") }
        return s
    }

    public func requiredString(_ key: String) throws(StripeParseError) -> String {
        guard let s = try string(key), !s.isEmpty else { throw .missingField(name(key)) }
        return s
    }

    public func integer(_ key: String) throws(StripeParseError) -> Int64? {
        guard let value = reader.value(key) else { return nil }
        guard case .integer(let i) = value else { throw .invalidField(name(key), expected: "an integer") }
        return i
    }

    public func bool(_ key: String) throws(StripeParseError) -> Bool? {
        guard let value = reader.value(key) else { return nil }
        guard case .bool(let b) = value else { throw .invalidField(name(key), expected: "a boolean") }
        return b
    }

    /// Unix seconds (Stripe's timestamps), as an instant.
    public func instant(_ key: String) throws(StripeParseError) -> Instant? {
        guard let seconds = try integer(key) else { return nil }
        guard abs(seconds) < 100_000_000_000 else { throw .invalidField(name(key), expected: "unix seconds") }
        return Instant(secondsSinceEpoch: seconds)
    }

    public func requiredInstant(_ key: String) throws(StripeParseError) -> Instant {
        guard let t = try instant(key) else { throw .missingField(name(key)) }
        return t
    }

    public func fields(_ key: String) throws(StripeParseError) -> StripeFields? {
        guard let value = reader.value(key) else { return nil }
        guard case .object(let o) = value else { throw .invalidField(name(key), expected: "an object") }
        return StripeFields(o, path: name(key))
    }

    /// An id field that Stripe sends as the id or, when expanded, as the object holding it.
    public func id(_ key: String) throws(StripeParseError) -> String? {
        guard let value = reader.value(key) else { return nil }
        switch value {
        case .string(let s): return s
        case .object(let o): return try StripeFields(o, path: name(key)).requiredString("id")
        default: throw .invalidField(name(key), expected: "an id or an object with an id")
        }
    }

    /// The objects of an array field (absent: none).
    public func objects(_ key: String) throws(StripeParseError) -> [StripeFields] {
        guard let value = reader.value(key) else { return [] }
        guard case .array(let items) = value else { throw .invalidField(name(key), expected: "an array of objects") }
        guard items.count <= StripeParserLimits.maximumEntries else {
            throw .invalidField(name(key), expected: "at most \(StripeParserLimits.maximumEntries) entries")
        }
        var out: [StripeFields] = []
        for (i, item) in items.enumerated() {
            guard case .object(let o) = item else { throw .invalidField("\(name(key))[\(i)]", expected: "an object") }
            out.append(StripeFields(o, path: "\(name(key))[\(i)]"))
        }
        return out
    }

    /// A list object `{"data": [...], "has_more"}` (Stripe's lists and embedded lists).
    public func list(_ key: String? = nil) throws(StripeParseError) -> (items: [StripeFields], hasMore: Bool) {
        var holder: StripeFields? = self
        if let key { holder = try fields(key) }
        guard let holder else { return ([], false) }
        return (try holder.objects("data"), try holder.bool("has_more") ?? false)
    }

    /// A `metadata` object's string values.
    public func metadata(_ key: String = "metadata") throws(StripeParseError) -> [String: String] {
        guard let m = try fields(key) else { return [:] }
        var out: [String: String] = [:]
        for member in m.object {
            if case .string(let s) = member.value { out[member.name] = s }
        }
        return out
    }
}
