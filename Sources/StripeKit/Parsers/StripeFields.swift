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
        let limits = JSONLimits(maxBytes: limit, maxDepth: JSONLimits.standard.maxDepth)
        return StripeFields(try JSONFieldReader<StripeParseError>.parse(body, limits: limits).object)
    }

    func name(_ key: String) -> String { reader.name(key) }

    /// Wire's reader of this object, which every typed read goes through.
    private var reader: JSONFieldReader<StripeParseError> { JSONFieldReader(object, path: path) }

    public func string(_ key: String) throws(StripeParseError) -> String? { try reader.string(key) }

    /// A string that must be present; an empty one counts as missing.
    public func requiredString(_ key: String) throws(StripeParseError) -> String {
        guard let s = try string(key), !s.isEmpty else { throw .missingField(name(key)) }
        return s
    }

    public func integer(_ key: String) throws(StripeParseError) -> Int64? { try reader.integer(key) }

    public func bool(_ key: String) throws(StripeParseError) -> Bool? { try reader.bool(key) }

    /// Unix seconds (Stripe's timestamps), as an instant.
    public func instant(_ key: String) throws(StripeParseError) -> Instant? {
        guard let seconds = try integer(key) else { return nil }
        guard abs(seconds) < 100_000_000_000 else { throw .invalidField(name(key), expected: "unix seconds") }
        return Instant(secondsSinceEpoch: seconds)
    }

    public func requiredInstant(_ key: String) throws(StripeParseError) -> Instant { try reader.required(key, instant) }

    public func fields(_ key: String) throws(StripeParseError) -> StripeFields? {
        try reader.object(key).map { StripeFields($0.object, path: $0.path) }
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
        guard (reader.value(key)?.arrayValue?.count ?? 0) <= StripeParserLimits.maximumEntries else {
            throw .invalidField(name(key), expected: "at most \(StripeParserLimits.maximumEntries) entries")
        }
        return try reader.objects(key).map { StripeFields($0.object, path: $0.path) }
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
