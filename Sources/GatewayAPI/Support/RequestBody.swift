import Entitle
import HTTPServer
import IssueCatalog
import Wire

/// A JSON request body, read strictly (RFC 8259, duplicate names refused) with the field rules of
/// http-api.md: unknown fields are ignored, a field of the wrong type is a 400 naming the field.
struct RequestBody {
    let object: JSONObject

    /// `optional`: an empty body stands for `{}` (e.g. `POST /v1/accounts`).
    init(_ request: HTTPRequest, optional: Bool = false) throws(APIError) {
        if request.body.isEmpty {
            guard optional else { throw .badRequest("the request needs a JSON body") }
            object = JSONObject()
            return
        }
        let value: JSONValue
        // The route's body limit already bounds the size (receipts allow more than the parser's
        // default); only the depth limit is the parser's to keep.
        let limits = JSONLimits(maxBytes: request.body.count, maxDepth: JSONLimits.standard.maxDepth)
        do { value = try JSONParser(limits: limits).parse(bytes: request.body) } catch {
            throw .badRequest("the body is not valid JSON: \(error)")
        }
        guard let object = value.objectValue else { throw .badRequest("the body must be a JSON object") }
        self.object = object
    }

    init(object: JSONObject) { self.object = object }

    /// Instants the API can answer in RFC 3339 UTC (four-digit years, RFC 3339 §5.6). A request
    /// instant whose offset carries it outside (`0000-01-01T00:00:00+01:00`) would be stored and
    /// then rendered as no valid timestamp at all, so it is refused.
    static let answerableInstants = Instant(rfc3339: "0000-01-01T00:00:00Z")!...Instant(rfc3339: "9999-12-31T23:59:59.999Z")!

    func string(_ name: String) throws(APIError) -> String {
        guard let value = try optionalString(name) else { throw .badRequest("\(name) is required") }
        return value
    }

    func optionalString(_ name: String) throws(APIError) -> String? {
        switch object[name] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        default: throw .badRequest("\(name) must be a string")
        }
    }

    func optionalBool(_ name: String) throws(APIError) -> Bool? {
        switch object[name] {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        default: throw .badRequest("\(name) must be true or false")
        }
    }

    func optionalInteger(_ name: String) throws(APIError) -> Int64? {
        switch object[name] {
        case nil, .null?: return nil
        case .integer(let i)?: return i
        default: throw .badRequest("\(name) must be an integer")
        }
    }

    func optionalInstant(_ name: String) throws(APIError) -> Instant? {
        guard let text = try optionalString(name) else { return nil }
        guard let instant = Instant(rfc3339: text) else {
            throw .badRequest("\(name) must be an RFC 3339 timestamp with its offset")
        }
        guard Self.answerableInstants.contains(instant) else {
            throw .badRequest("\(name) must fall in the years 0000 to 9999 in UTC")
        }
        return instant
    }

    func instant(_ name: String) throws(APIError) -> Instant {
        guard let value = try optionalInstant(name) else { throw .badRequest("\(name) is required") }
        return value
    }

    func optionalStrings(_ name: String) throws(APIError) -> [String]? {
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

    func optionalObjects(_ name: String) throws(APIError) -> [RequestBody]? {
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

    func optionalObject(_ name: String) throws(APIError) -> RequestBody? {
        switch object[name] {
        case nil, .null?: return nil
        case .object(let o)?: return RequestBody(object: o)
        default: throw .badRequest("\(name) must be an object")
        }
    }
}
