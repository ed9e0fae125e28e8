import Entitle
import Wire
/// Maps a method and path to a handler. Built before the server starts and read-only afterwards,
/// which is what makes sharing it between loops safe.
///
/// Matching: literal segments win over parameters at the same position (so `/v1/keys/new` can sit
/// beside `/v1/keys/{keyId}`); a path that matches a pattern but not the method is a 405 with
/// `Allow`; HEAD is answered by the GET handler without the body (RFC 9110 §9.3.2).
final class Router: @unchecked Sendable {
    struct Route: Sendable {
        let method: String
        let pattern: RoutePattern
        let execution: Execution
        let maxBodyBytes: Int?
        let handler: HTTPHandler
    }

    enum Match {
        case found(Route, parameters: [String: String])
        case methodNotAllowed(allowed: [String])
        case notFound
        /// A parameter segment did not percent-decode.
        case badPath
    }

    private final class Node {
        var literals: [String: Node] = [:]
        var parameter: (name: String, node: Node)?
        var routes: [String: Route] = [:]
    }

    private let root = Node()
    private(set) var routes: [Route] = []
    /// Routes without parameters by "METHOD path": most requests (the edge check, health, the
    /// catalog) find theirs with one lookup instead of a walk.
    private var fixed: [String: Route] = [:]

    init() {}

    /// Registers a handler. Call before the server starts.
    func add(_ method: String, _ pattern: String, execution: Execution = .inline, maxBodyBytes: Int? = nil,
             handler: @escaping HTTPHandler) {
        let pattern = RoutePattern(pattern)
        var node = root
        for segment in pattern.segments {
            switch segment {
            case .literal(let text):
                if let next = node.literals[text] {
                    node = next
                } else {
                    let next = Node()
                    node.literals[text] = next
                    node = next
                }
            case .parameter(let name):
                if let existing = node.parameter {
                    precondition(existing.name == name, "conflicting parameter names at \(pattern.text)")
                    node = existing.node
                } else {
                    let next = Node()
                    node.parameter = (name, next)
                    node = next
                }
            }
        }
        precondition(node.routes[method] == nil, "route registered twice: \(method) \(pattern.text)")
        let route = Route(method: method, pattern: pattern, execution: execution,
                          maxBodyBytes: maxBodyBytes, handler: handler)
        node.routes[method] = route
        routes.append(route)
        if !pattern.segments.contains(where: { if case .parameter = $0 { true } else { false } }) {
            fixed[method + " " + pattern.text] = route
        }
    }

    /// The route for `method` and a percent-encoded `path`. Walks the path's segments in place
    /// (no array of segments): this runs for every request.
    func match(method: String, path: String) -> Match {
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
