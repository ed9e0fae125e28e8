import Entitle
import IssueCatalog
import Wire

/// A JSON request body, read strictly (RFC 8259, duplicate names refused) with the field rules of
/// http-api.md: unknown fields are ignored, a field of the wrong type is a 400 naming the field.
package struct RequestBody {
    package let object: JSONObject

    package init(object: JSONObject) { self.object = object }

    /// Instants the API can answer in RFC 3339 UTC (four-digit years, RFC 3339 §5.6). A request
    /// instant whose offset carries it outside (`0000-01-01T00:00:00+01:00`) would be stored and
    /// then rendered as no valid timestamp at all, so it is refused.
    package static let answerableInstants = Instant(rfc3339: "0000-01-01T00:00:00Z")!...Instant(rfc3339: "9999-12-31T23:59:59.999Z")!

    package func string(_ name: String) throws(APIError) -> String {
        guard let value = try optionalString(name) else { throw .badRequest("\(name) is required") }
        return value
    }

    package func optionalString(_ name: String) throws(APIError) -> String? {
        try optional(name, mustBe: "a string", \.stringValue)
    }

    package func optionalBool(_ name: String) throws(APIError) -> Bool? {
        try optional(name, mustBe: "true or false", \.boolValue)
    }

    package func optionalInteger(_ name: String) throws(APIError) -> Int64? {
        try optional(name, mustBe: "an integer", \.integerValue)
    }

    package func optionalInstant(_ name: String) throws(APIError) -> Instant? {
        guard let text = try optionalString(name) else { return nil }
        guard let instant = Instant(rfc3339: text) else {
            throw .badRequest("\(name) must be an RFC 3339 timestamp with its offset")
        }
        guard Self.answerableInstants.contains(instant) else {
            throw .badRequest("\(name) must fall in the years 0000 to 9999 in UTC")
        }
        return instant
    }

    package func instant(_ name: String) throws(APIError) -> Instant {
        guard let value = try optionalInstant(name) else { throw .badRequest("\(name) is required") }
        return value
    }

    package func optionalStrings(_ name: String) throws(APIError) -> [String]? {
        try optional(name, mustBe: "an array of strings") { Self.each($0, \.stringValue) }
    }

    package func optionalObjects(_ name: String) throws(APIError) -> [RequestBody]? {
        try optional(name, mustBe: "an array of objects") { Self.each($0) { $0.objectValue.map(RequestBody.init(object:)) } }
    }

    package func optionalObject(_ name: String) throws(APIError) -> RequestBody? {
        try optional(name, mustBe: "an object") { $0.objectValue.map(RequestBody.init(object:)) }
    }

    /// http-api.md's field rule, once for every type: absent or null is nil, a value `read` cannot
    /// take is a 400 naming the field and what it must be.
    private func optional<T>(_ name: String, mustBe expected: String, _ read: (JSONValue) -> T?) throws(APIError) -> T? {
        let reader = JSONFieldReader<APIError>(object) { field, expected in .badRequest("\(field) must be \(expected)") }
        return try reader.typed(name, expected: expected, read)
    }

    /// An array whose every item `read` takes; nil for anything else (one bad item spoils it).
    private static func each<T>(_ value: JSONValue, _ read: (JSONValue) -> T?) -> [T]? {
        guard let items = value.arrayValue else { return nil }
        var taken: [T] = []
        taken.reserveCapacity(items.count)
        for item in items {
            guard let t = read(item) else { return nil }
            taken.append(t)
        }
        return taken
    }
}
