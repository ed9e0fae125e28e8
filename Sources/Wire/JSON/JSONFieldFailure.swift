/// The refusals of a parser of outside bodies (the stores' answers and notifications), each
/// naming the field by its full path: a parser's error type with these cases gets
/// `JSONFieldReader`'s body parsing and required fields.
public protocol JSONFieldFailure: Error {
    static func tooLarge(bytes: Int, limit: Int) -> Self
    static func notJSON(_ detail: String) -> Self
    static func missingField(_ path: String) -> Self
    static func invalidField(_ path: String, expected: String) -> Self
}

extension JSONFieldReader where Failure: JSONFieldFailure {
    public init(_ object: JSONObject, path: String = "") {
        self.init(object, path: path, invalid: Failure.invalidField)
    }

    /// A body that must be a JSON object (the strict parser: RFC 8259, no duplicate names), no
    /// larger than `limits` allow.
    public static func parse(_ body: some Collection<UInt8>, limits: JSONLimits) throws(Failure) -> JSONFieldReader {
        guard body.count <= limits.maxBytes else { throw .tooLarge(bytes: body.count, limit: limits.maxBytes) }
        let value: JSONValue
        do { value = try JSONParser(limits: limits).parse(bytes: Array(body)) } catch { throw .notJSON("malformed JSON: \(error)") }
        guard case .object(let object) = value else { throw .notJSON("top level is not an object") }
        return JSONFieldReader(object)
    }

    /// The member as `read` reads it, refused as missing when absent.
    public func required<Value>(_ name: String, _ read: (String) throws(Failure) -> Value?) throws(Failure) -> Value {
        guard let value = try read(name) else { throw .missingField(self.name(name)) }
        return value
    }

    /// A string that must be present and not empty.
    public func requiredString(_ name: String) throws(Failure) -> String {
        let text = try required(name, string)
        guard !text.isEmpty else { throw refusal(name, expected: "a non-empty string") }
        return text
    }
}
