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
    private var resolvedSession: String?

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
        let (principal, sessionId) = try authenticator.session(request)
        resolved = principal
        resolvedSession = sessionId
        return principal
    }

    /// The session the request's bearer secret is (E34), nil for a key; 401 as `principal()`.
    package mutating func sessionId() throws(GatewayError) -> String? {
        _ = try principal()
        return resolvedSession
    }

    /// E32: the requester's live session, when its bearer is one; nil for none, a key, or a
    /// secret that resolves to nothing (a sign-in never fails for its bearer).
    package mutating func optionalSession() throws(GatewayError) -> SignIn.Bearer? {
        guard Authenticator.bearerSecret(request) != nil else { return nil }
        do {
            guard case .account(let accountId) = try principal(), let sessionId = resolvedSession else { return nil }
            return SignIn.Bearer(accountId: accountId, sessionId: sessionId)
        } catch .unauthorized {
            return nil
        }
    }
}
