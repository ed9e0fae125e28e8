import Testing
@testable import HTTPServer

@Suite struct RouterTests {
    private func router() -> Router {
        let router = RouterBuilder()
        let ok: HTTPHandler = { _ in .noContent }
        router.add("GET", "/v1/publications/{publicationId}/issues/{issueId}", handler: ok)
        router.add("PUT", "/v1/publications/{publicationId}/issues/{issueId}", execution: .worker, handler: ok)
        router.add("GET", "/v1/keys/new", handler: ok)
        router.add("DELETE", "/v1/keys/{keyId}", handler: ok)
        router.add("GET", "/", handler: ok)
        return router.freeze()
    }

    @Test func capturesDecodedParameters() throws {
        guard case .found(let route, let parameters) = router().match(method: "GET", path: "/v1/publications/the%20monthly/issues/2012-05") else {
            Issue.record("no match"); return
        }
        #expect(route.pattern.text == "/v1/publications/{publicationId}/issues/{issueId}")
        #expect(parameters == ["publicationId": "the monthly", "issueId": "2012-05"])
    }

    @Test func literalSegmentsWinAndParametersStillMatch() {
        guard case .found(let route, _) = router().match(method: "GET", path: "/v1/keys/new") else {
            Issue.record("no match"); return
        }
        #expect(route.pattern.text == "/v1/keys/new")
        guard case .found(_, let parameters) = router().match(method: "DELETE", path: "/v1/keys/k1") else {
            Issue.record("no match"); return
        }
        #expect(parameters == ["keyId": "k1"])
    }

    @Test func unknownMethodListsAllowed() {
        guard case .methodNotAllowed(let allowed) = router().match(method: "POST", path: "/v1/publications/a/issues/b") else {
            Issue.record("expected 405"); return
        }
        #expect(allowed == ["GET", "HEAD", "PUT"])
    }

    @Test func headUsesGetAndUnknownPathsAreNotFound() {
        if case .found(let route, _) = router().match(method: "HEAD", path: "/") {
            #expect(route.method == "GET")
        } else {
            Issue.record("HEAD / should use GET /")
        }
        for path in ["/nope", "/v1/publications/a/issues", "/v1/publications/a/issues/b/c", "/v1/publications//issues/b"] {
            guard case .notFound = router().match(method: "GET", path: path) else {
                Issue.record("\(path) should be 404"); continue
            }
        }
        guard case .badPath = router().match(method: "DELETE", path: "/v1/keys/%zz") else {
            Issue.record("bad escape should be rejected"); return
        }
    }
}
