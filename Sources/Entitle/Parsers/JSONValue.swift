import Foundation

/// A JSON document as the App Store sent it, kept with its types (a string "1" is not the number 1)
/// so that the field readers can accept exactly the spellings appstore.md lists.
enum JSONValue: Decodable, Hashable {
    case null, bool(Bool), int(Int64), double(Double), string(String)
    case array([JSONValue]), object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int64.self) { self = .int(i) }
        else if let d = try? c.decode(Double.self) { self = .double(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    /// Parses a body that must be a JSON object, within the parser's size limit.
    static func object(from body: Data, limit: Int = AppStoreParserLimits.maximumBodyBytes) throws -> JSONObject {
        guard body.count <= limit else { throw AppStoreParseError.tooLarge(bytes: body.count, limit: limit) }
        let value: JSONValue
        do { value = try JSONDecoder().decode(JSONValue.self, from: body) } catch {
            throw AppStoreParseError.notJSON("malformed JSON")
        }
        guard case let .object(fields) = value else { throw AppStoreParseError.notJSON("top level is not an object") }
        return JSONObject(fields: fields, path: "")
    }
}
