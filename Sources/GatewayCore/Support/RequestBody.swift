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
        switch object[name] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        default: throw .badRequest("\(name) must be a string")
        }
    }

    package func optionalBool(_ name: String) throws(APIError) -> Bool? {
        switch object[name] {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        default: throw .badRequest("\(name) must be true or false")
        }
    }

    package func optionalInteger(_ name: String) throws(APIError) -> Int64? {
        switch object[name] {
        case nil, .null?: return nil
        case .integer(let i)?: return i
        default: throw .badRequest("\(name) must be an integer")
        }
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
        switch object[name] {
        case nil, .null?: return nil
        case .array(let items)?:
            var strings: [String] = []
            for item in items {
                guard let s = item.stringValue else { throw .badRequest("\(name) must be an array of strings") }
                strings.append(s)
            }
            return strings
        default: throw .badRequest("\(name) must be an array of strings")
        }
    }

    package func optionalObjects(_ name: String) throws(APIError) -> [RequestBody]? {
        switch object[name] {
        case nil, .null?: return nil
        case .array(let items)?:
            var objects: [RequestBody] = []
            for item in items {
                guard let o = item.objectValue else { throw .badRequest("\(name) must be an array of objects") }
                objects.append(RequestBody(object: o))
            }
            return objects
        default: throw .badRequest("\(name) must be an array of objects")
        }
    }

    package func optionalObject(_ name: String) throws(APIError) -> RequestBody? {
        switch object[name] {
        case nil, .null?: return nil
        case .object(let o)?: return RequestBody(object: o)
        default: throw .badRequest("\(name) must be an object")
        }
    }
}
