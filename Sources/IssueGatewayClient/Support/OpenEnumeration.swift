/// A set of string values the gateway names, open to values it adds later: a value this
/// version of the client does not know decodes as the type's `unrecognized` case, keeping its
/// text, instead of failing the whole answer (http-api.md: fields may be added).
public protocol OpenEnumeration: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible
where RawValue == String {
    /// The value for `rawValue`, the `unrecognized` case when it is none of the known ones.
    init(rawValue: String)
}

extension OpenEnumeration {
    /// Decodes the value from a JSON string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the value as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The value's text, as the gateway spells it.
    public var description: String { rawValue }
}
