/// Registers routes before the server starts; `freeze` turns them into the immutable `Router` the
/// server (and `InProcessClient`) take. A frozen router has no way to add a route, so no route can
/// appear while loops are reading it.
///
/// Matching rules are `Router`'s; registering the same method and pattern twice, or two names
/// for one parameter position, is a programming error and stops the process.
public final class RouterBuilder {
    private final class Node {
        var literals: [String: Node] = [:]
        var parameter: (name: String, node: Node)?
        var routes: [String: Route] = [:]

        func freeze() -> Router.Node {
            Router.Node(literals: literals.mapValues { $0.freeze() },
                        parameter: parameter.map { ($0.name, $0.node.freeze()) },
                        routes: routes)
        }
    }

    private let root = Node()
    private var routes: [Route] = []

    public init() {}

    /// Registers `handler` for `method` and `pattern` (`/v1/publications/{publicationId}`).
    /// `fastPlan`, when given, runs first on the event loop: it answers from memory, leaves the end
    /// of its answer to the route's pool (`FastPathPlan.finishOnPool`), or declines (nil) and
    /// `handler` runs on `execution`. `maxBodyBytes` overrides the server's body limit;
    /// `spoolsBody` keeps the body in a temporary file instead of memory (`HTTPRequest.spooledBody`);
    /// `authorizeHead` may refuse a request from its head before its body is read (`HeadDecision`):
    /// only on a route that spools its body (a body kept in memory has no disk to protect) and runs
    /// on a pool (where a `decideOnPool` decision runs; the event loop never waits on one).
    public func add(_ method: String, _ pattern: String, execution: Execution = .inline, maxBodyBytes: Int? = nil,
                    spoolsBody: Bool = false, authorizeHead: HTTPHeadCheck? = nil, fastPlan: HTTPPlanningFastPath? = nil,
                    handler: @escaping HTTPHandler) {
        let pattern = RoutePattern(pattern)
        if authorizeHead != nil {
            var onPool = false
            if case .pool = execution { onPool = true }
            precondition(spoolsBody && onPool, "authorizeHead needs spoolsBody and a pool execution: \(method) \(pattern.text)")
        }
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
        let route = Route(method: method, pattern: pattern, execution: execution, maxBodyBytes: maxBodyBytes,
                          spoolsBody: spoolsBody, authorizeHead: authorizeHead, fastPath: fastPlan, handler: handler)
        node.routes[method] = route
        routes.append(route)
    }

    /// The immutable router; `errors` renders the server's own answers (404, 405, 400 for a bad
    /// path, and every framing, limit and busy answer of a server using this router).
    public func freeze(errors: @escaping HTTPErrorRenderer = HTTPServerError.plainText) -> Router {
        Router(root: root.freeze(), routes: routes, errors: errors)
    }
}
