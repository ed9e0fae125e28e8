import Entitle
import GatewayCore
import HTTPServer
import IssueCatalog
import Wire

/// A JSON request body, read strictly (RFC 8259, duplicate names refused) with the field rules of
/// http-api.md: unknown fields are ignored, a field of the wrong type is a 400 naming the field.
package struct RequestBody {
    package let object: JSONObject

    package init(object: JSONObject) { self.object = object }

    /// `optional`: an empty body stands for `{}` (e.g. `POST /v1/accounts`).
    package init(_ request: HTTPRequest, optional: Bool = false) throws(GatewayError) {
        if request.body.isEmpty {
            guard optional else { throw .invalid("the request needs a JSON body") }
            self.init(object: JSONObject())
            return
        }
        let value: JSONValue
        // The route's body limit already bounds the size (receipts allow more than the parser's
        // default); only the depth limit is the parser's to keep.
        let limits = JSONLimits(maxBytes: request.body.count, maxDepth: JSONLimits.standard.maxDepth)
        do { value = try JSONParser(limits: limits).parse(bytes: request.body) } catch {
            throw .invalid("the body is not valid JSON: \(error)")
        }
        guard let object = value.objectValue else { throw .invalid("the body must be a JSON object") }
        self.init(object: object)
    }

    /// Instants the API can answer in RFC 3339 UTC (four-digit years, RFC 3339 §5.6). A request
    /// instant whose offset carries it outside (`0000-01-01T00:00:00+01:00`) would be stored and
    /// then rendered as no valid timestamp at all, so it is refused.
    package static let answerableInstants = Instant(rfc3339: "0000-01-01T00:00:00Z")!...Instant(rfc3339: "9999-12-31T23:59:59.999Z")!

    package func string(_ name: String) throws(GatewayError) -> String {
        guard let value = try optionalString(name) else { throw .invalid("\(name) is required") }
        return value
    }

    package func optionalString(_ name: String) throws(GatewayError) -> String? {
        try optional(name, mustBe: "a string", \.stringValue)
    }

    package func optionalBool(_ name: String) throws(GatewayError) -> Bool? {
        try optional(name, mustBe: "true or false", \.boolValue)
    }

    package func optionalInteger(_ name: String) throws(GatewayError) -> Int64? {
        try optional(name, mustBe: "an integer", \.integerValue)
    }

    package func optionalInstant(_ name: String) throws(GatewayError) -> Instant? {
        guard let text = try optionalString(name) else { return nil }
        guard let instant = Instant(rfc3339: text) else {
            throw .invalid("\(name) must be an RFC 3339 timestamp with its offset")
        }
        guard Self.answerableInstants.contains(instant) else {
            throw .invalid("\(name) must fall in the years 0000 to 9999 in UTC")
        }
        return instant
    }

    package func instant(_ name: String) throws(GatewayError) -> Instant {
        guard let value = try optionalInstant(name) else { throw .invalid("\(name) is required") }
        return value
    }

    package func optionalStrings(_ name: String) throws(GatewayError) -> [String]? {
        try optional(name, mustBe: "an array of strings") { Self.each($0, \.stringValue) }
    }

    package func optionalObjects(_ name: String) throws(GatewayError) -> [RequestBody]? {
        try optional(name, mustBe: "an array of objects") { Self.each($0) { $0.objectValue.map(RequestBody.init(object:)) } }
    }

    package func optionalObject(_ name: String) throws(GatewayError) -> RequestBody? {
        try optional(name, mustBe: "an object") { $0.objectValue.map(RequestBody.init(object:)) }
    }

    /// http-api.md's field rule, once for every type: absent or null is nil, a value `read` cannot
    /// take is a 400 naming the field and what it must be.
    private func optional<T>(_ name: String, mustBe expected: String, _ read: (JSONValue) -> T?) throws(GatewayError) -> T? {
        let reader = JSONFieldReader<GatewayError>(object) { field, expected in .invalid("\(field) must be \(expected)") }
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
