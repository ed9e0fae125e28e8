import GatewayCore
import HTTPServer

/// The API's routes registered on the server's builder, each answer passing through
/// `JSONCoding`: the API layer, not the server, decides codings, because it knows which answers
/// are JSON and keeps the compressed issue lists (`CompressedBodies`) that make gzip cheap to poll;
/// the HTTP server stays a transport that knows no application.
package final class APIRouterBuilder {
    private let builder: RouterBuilder
    private let authenticator: Authenticator

    package init(_ builder: RouterBuilder, authenticator: Authenticator) {
        self.builder = builder; self.authenticator = authenticator
    }

    /// A route over its `RequestContext`; a thrown `GatewayError` is answered (`APIError`) in the spec's shape.
    /// `authorizeHead` checks the head of a request whose body is still arriving (a spooled list),
    /// so that a request it refuses leaves nothing on disk.
    package func add(_ method: String, _ pattern: String, execution: Execution = .inline, maxBodyBytes: Int? = nil,
                     spoolsBody: Bool = false, authorizeHead: APIHeadCheck? = nil, fastPlan: HTTPPlanningFastPath? = nil,
                     route: @escaping APIRoute) {
        let authenticator = self.authenticator
        add(method, pattern, execution: execution, maxBodyBytes: maxBodyBytes, spoolsBody: spoolsBody,
            authorizeHead: authorizeHead.map { headCheck($0) }, fastPlan: fastPlan) { request in
            var context = RequestContext(request, authenticator: authenticator)
            do throws(GatewayError) { return try route(&context) } catch { return error.response }
        }
    }

    package func add(_ method: String, _ pattern: String, execution: Execution = .inline, maxBodyBytes: Int? = nil,
                     spoolsBody: Bool = false, authorizeHead: HTTPHeadCheck? = nil, fastPlan: HTTPPlanningFastPath? = nil,
                     handler: @escaping HTTPHandler) {
        var coded: HTTPPlanningFastPath?
        if let fastPlan {
            coded = { @Sendable request in
                switch fastPlan(&request) {
                case nil: return nil
                case .answer(let response): return .answer(JSONCoding.encode(response, for: request))
                case .finishOnPool(let finish):
                    let asked = request
                    return .finishOnPool { JSONCoding.encode(finish(), for: asked) }
                }
            }
        }
        builder.add(method, pattern, execution: execution, maxBodyBytes: maxBodyBytes, spoolsBody: spoolsBody,
                    authorizeHead: authorizeHead, fastPlan: coded) { request in
            JSONCoding.encode(handler(request), for: request)
        }
    }

    /// `check` as the server runs it on a head: a request with no bearer secret at all is refused
    /// on the event loop (401); resolving a secret may ask the store, so the rest is decided on the
    /// route's pool. Refusals are in the spec's shape.
    private func headCheck(_ check: @escaping APIHeadCheck) -> HTTPHeadCheck {
        let authenticator = self.authenticator
        return { request in
            guard Authenticator.bearerSecret(request) != nil else {
                return .refuse(JSONCoding.encode(GatewayError.unauthorized().response, for: request))
            }
            return .decideOnPool {
                var context = RequestContext(request, authenticator: authenticator)
                do throws(GatewayError) {
                    try check(&context)
                    return nil
                } catch {
                    return JSONCoding.encode(error.response, for: request)
                }
            }
        }
    }
}
