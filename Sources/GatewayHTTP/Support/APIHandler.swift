import GatewayCore
import GatewayStore
import HTTPServer

/// A route body that may throw an `APIError`; the wrapper answers the error in the spec's shape.
package typealias APIRoute = @Sendable (HTTPRequest) throws(APIError) -> HTTPResponse

package func apiHandler(_ route: @escaping APIRoute) -> HTTPHandler {
    { request in
        do throws(APIError) { return try route(request) } catch { return error.response }
    }
}

extension HTTPRequest {
    /// A path parameter the router matched; the pattern guarantees it is present.
    package func parameter(_ name: String) -> String { pathParameters[name] ?? "" }

    /// A boolean query flag: absent is false; present, exactly `true` or `false`.
    package func flag(_ name: String) throws(APIError) -> Bool { try QueryFlag.value(of: name, in: queryParameters()) }
}

/// Boolean query flags (`?all=`, `?entitled=`) take `true` or `false` and nothing else, once: a
/// client that wrote `?entitled=1` or `?all=yes` gets a 400 saying so, not a silent default.
package enum QueryFlag {
    package static func value(of name: String, in query: [(String, String)]) throws(APIError) -> Bool {
        var found: Bool?
        for (key, value) in query where key == name {
            guard found == nil else { throw .badRequest("query flag \(name) given more than once") }
            switch value {
            case "true": found = true
            case "false": found = false
            default: throw .badRequest("query flag \(name) must be true or false")
            }
        }
        return found ?? false
    }
}
