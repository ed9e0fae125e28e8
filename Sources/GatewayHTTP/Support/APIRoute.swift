import GatewayCore
import GatewayStore
import HTTPServer

/// A route body over the request's context that may throw a `GatewayError`; `APIRouterBuilder`
/// answers the error in the spec's shape.
package typealias APIRoute = @Sendable (inout RequestContext) throws(GatewayError) -> HTTPResponse

/// A route's check of a request's head before its body is read (`HeadDecision`): the request's
/// context without its body; a thrown `GatewayError` refuses the request.
package typealias APIHeadCheck = @Sendable (inout RequestContext) throws(GatewayError) -> Void

extension HTTPRequest {
    /// A path parameter the router matched; the pattern guarantees it is present.
    package func parameter(_ name: String) -> String { pathParameters[name] ?? "" }
}

/// Boolean query flags (`?all=`, `?entitled=`) take `true` or `false` and nothing else, once: a
/// client that wrote `?entitled=1` or `?all=yes` gets a 400 saying so, not a silent default.
package enum QueryFlag {
    package static func value(of name: String, in query: [(String, String)]) throws(GatewayError) -> Bool {
        var found: Bool?
        for (key, value) in query where key == name {
            guard found == nil else { throw .invalid("query flag \(name) given more than once") }
            switch value {
            case "true": found = true
            case "false": found = false
            default: throw .invalid("query flag \(name) must be true or false")
            }
        }
        return found ?? false
    }
}
