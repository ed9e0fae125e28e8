import GatewayCore
import HTTPServer

/// A request as a route sees it: the request, its path parameters (matched by the router), its
/// query (parsed once, RFC 3986 §3.4) and who is asking, resolved at most once per request so the
/// bearer secret is hashed once however many checks a route makes.
package struct RequestContext {
    package let request: HTTPRequest
    package let query: [(String, String)]
    private let authenticator: Authenticator
    private var resolved: Principal?

    package init(_ request: HTTPRequest, authenticator: Authenticator) {
        self.request = request
        query = request.queryParameters()
        self.authenticator = authenticator
    }

    /// A path parameter the router matched; the pattern guarantees it is present.
    package func parameter(_ name: String) -> String { request.parameter(name) }

    /// The first value of a query parameter.
    package func queryParameter(_ name: String) -> String? { query.first { $0.0 == name }?.1 }

    /// A boolean query flag: absent is false; present, exactly `true` or `false`.
    package func flag(_ name: String) throws(GatewayError) -> Bool { try QueryFlag.value(of: name, in: query) }

    /// Who is asking (http-api.md, Auth): 401 when the secret is missing or unknown.
    package mutating func principal() throws(GatewayError) -> Principal {
        if let resolved { return resolved }
        let principal = try authenticator.principal(request)
        resolved = principal
        return principal
    }
}
