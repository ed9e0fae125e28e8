import Wire

/// The routes, frozen (`RouterBuilder.freeze`): immutable, so every event loop and worker shares
/// it without locks. Also the application's error renderer, which every answer the server makes
/// on its own goes through.
///
/// Matching: literal segments win over parameters at the same position (so `/v1/keys/new` can sit
/// beside `/v1/keys/{keyId}`); a path that matches a pattern but not the method is a 405 with
/// `Allow`; HEAD is answered by the GET handler without the body (RFC 9110 §9.3.2).
public final class Router: Sendable {
    public enum Match: Sendable {
        case found(Route, parameters: [String: String])
        case methodNotAllowed(allowed: [String])
        case notFound
        /// A parameter segment did not percent-decode.
        case badPath
    }

    final class Node: Sendable {
        let literals: [String: Node]
        let parameter: (name: String, node: Node)?
        let routes: [String: Route]

        init(literals: [String: Node], parameter: (name: String, node: Node)?, routes: [String: Route]) {
            self.literals = literals
            self.parameter = parameter
            self.routes = routes
        }
    }

    private let root: Node
    public let routes: [Route]
    /// Routes without parameters by "METHOD path": most requests (the edge check, health, the
    /// catalog) find theirs with one lookup instead of a walk.
    private let fixed: [String: Route]
    public let errors: HTTPErrorRenderer

    init(root: Node, routes: [Route], errors: @escaping HTTPErrorRenderer) {
        self.root = root
        self.routes = routes
        self.errors = errors
        var fixed: [String: Route] = [:]
        for route in routes where !route.pattern.hasParameters {
            fixed[route.method + " " + route.pattern.text] = route
        }
        self.fixed = fixed
    }

    /// The route for `method` and a percent-encoded `path`. Walks the path's segments in place
    /// (no array of segments): this runs for every request.
    public func match(method: String, path: String) -> Match {
        if let route = fixed[method + " " + path] { return .found(route, parameters: [:]) }
        var captured: [(String, Substring)] = []
        // "/" has no segments; "/a/" has "a" and "" (see RoutePattern.split).
        let segments: Substring? = path == "/" ? nil : Substring(path).dropFirst()
        guard path.hasPrefix("/"), let node = find(root, segments, &captured) else { return .notFound }
        let route = node.routes[method] ?? (method == "HEAD" ? node.routes["GET"] : nil)
        guard let route else { return .methodNotAllowed(allowed: allowedMethods(node)) }
        var parameters: [String: String] = [:]
        for (name, raw) in captured {
            guard let value = PercentDecoding.decode(raw) else { return .badPath }
            parameters[name] = value
        }
        return .found(route, parameters: parameters)
    }

    /// `rest` is what follows a `/`: the next segment up to the next `/`, then the rest; nil
    /// when no segments are left.
    private func find(_ node: Node, _ rest: Substring?, _ captured: inout [(String, Substring)]) -> Node? {
        guard let rest else { return node.routes.isEmpty ? nil : node }
        let slash = rest.firstIndex(of: "/")
        let segment = slash.map { rest[..<$0] } ?? rest
        let remainder = slash.map { rest[rest.index(after: $0)...] }
        if let next = node.literals[String(segment)], let found = find(next, remainder, &captured) {
            return found
        }
        if let (name, next) = node.parameter, !segment.isEmpty {
            captured.append((name, segment))
            if let found = find(next, remainder, &captured) { return found }
            captured.removeLast()
        }
        return nil
    }

    private func allowedMethods(_ node: Node) -> [String] {
        var methods = Set(node.routes.keys)
        if methods.contains("GET") { methods.insert("HEAD") }
        return methods.sorted()
    }
}
