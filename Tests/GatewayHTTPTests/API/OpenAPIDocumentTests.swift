import Foundation
@testable import GatewayConfiguration
import HTTPServer
import Testing
import GatewayTesting

/// The served `/openapi.json` against the router the gateway really runs: a route missing from
/// either side, or an answer the document does not list, fails here.
@Suite struct OpenAPIDocumentTests {
    static let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]

    private func document(_ h: H) throws -> [String: Any] {
        let response = try h.client.get("/openapi.json")
        try #require(response.status == 200)
        #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
        return response.json
    }

    /// `METHOD /pattern` for every operation of the document.
    private func operations(_ document: [String: Any]) -> [String: [String: Any]] {
        var found: [String: [String: Any]] = [:]
        for (path, item) in document["paths"] as? [String: [String: Any]] ?? [:] {
            for (method, operation) in item where Self.methods.contains(method) {
                found["\(method.uppercased()) \(path)"] = operation as? [String: Any] ?? [:]
            }
        }
        return found
    }

    @Test func everyRouteIsDocumentedAndEveryDocumentedOperationIsRouted() throws {
        let h = try H()
        let routed = Set(h.runtime.api.makeRouter().routes.map { "\($0.method) \($0.pattern.text)" })
        let documented = Set(operations(try document(h)).keys)
        #expect(routed.count >= 19)
        #expect(routed.subtracting(documented).sorted() == [], "routes missing from /openapi.json")
        #expect(documented.subtracting(routed).sorted() == [], "documented operations with no route")
    }

    /// The document is a resource a person edits: pretty-printed JSON, no line of 200 characters
    /// or more, served byte for byte as it is in the file.
    @Test func theDocumentIsAReadableResourceServedAsItIs() throws {
        let text = String(decoding: OpenAPIDocument.bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 1000, "one member per line")
        #expect(lines.filter { $0.count >= 200 }.isEmpty, "no line of 200 characters or more")
        #expect(text.hasPrefix("{\n  \"openapi\": \"3.1.0\","))
        let h = try H()
        #expect(try h.client.get("/openapi.json").body == OpenAPIDocument.bytes)
    }

    @Test func theDocumentIsOpenAPI31WithUniqueOperationsAndDeclaredParameters() throws {
        let h = try H()
        let doc = try document(h)
        #expect(doc["openapi"] as? String == "3.1.0")
        let all = operations(doc)
        let ids = all.values.compactMap { $0["operationId"] as? String }
        #expect(ids.count == all.count)
        #expect(Set(ids).count == ids.count, "operationIds are unique")
        let paths = doc["paths"] as? [String: [String: Any]] ?? [:]
        for (key, operation) in all {
            let path = String(key.split(separator: " ")[1])
            let placeholders = Set(path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) })
            let shared = paths[path]?["parameters"] as? [[String: Any]] ?? []
            let own = operation["parameters"] as? [[String: Any]] ?? []
            let declared = Set((shared + own).filter { $0["in"] as? String == "path" }.compactMap { $0["name"] as? String })
            #expect(placeholders.isSubset(of: declared), "\(key) declares its path parameters")
            #expect(!(operation["responses"] as? [String: Any] ?? [:]).isEmpty, "\(key) lists its answers")
        }
    }

    /// Answers the gateway really gives, each of which the document must list for its operation.
    @Test func observedAnswersAreDocumented() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        let other = try h.createAccount()
        let editor = try h.createKey(#"{"role":"editor","publications":["weekly"]}"#)
        let issue = H.issueBody(id: "2026-01", publishedAt: "2026-01-01T00:00:00Z", paths: H.paidPaths)
        let big = #"{"title":"\#(String(repeating: "x", count: 2 << 20))"}"#
        struct Case { var operation: String; var method: String; var path: String; var secret: String?; var body: String? }
        let cases: [Case] = [
            Case(operation: "PUT /v1/publications/{publicationId}", method: "PUT", path: "/v1/publications/p2", secret: H.adminKey, body: #"{"title":"P"}"#),
            Case(operation: "PUT /v1/publications/{publicationId}", method: "PUT", path: "/v1/publications/p2", secret: H.adminKey, body: #"{"title":1}"#),
            Case(operation: "PUT /v1/publications/{publicationId}", method: "PUT", path: "/v1/publications/p2", secret: H.adminKey, body: big),
            Case(operation: "PUT /v1/publications/{publicationId}", method: "PUT", path: "/v1/publications/p2", secret: editor.secret, body: #"{"title":"P"}"#),
            Case(operation: "PUT /v1/products/{productId}", method: "PUT", path: "/v1/products/x", secret: H.adminKey, body: #"{"kind":"nope"}"#),
            Case(operation: "POST /v1/publications/{publicationId}/issues", method: "POST", path: "/v1/publications/monthly/issues", secret: H.adminKey, body: issue),
            Case(operation: "POST /v1/publications/{publicationId}/issues", method: "POST", path: "/v1/publications/none/issues", secret: H.adminKey, body: issue),
            Case(operation: "PUT /v1/publications/{publicationId}/issues/{issueId}", method: "PUT", path: "/v1/publications/monthly/issues/2026-09", secret: H.adminKey, body: issue),
            Case(operation: "DELETE /v1/publications/{publicationId}/issues/{issueId}", method: "DELETE", path: "/v1/publications/monthly/issues/2026-09", secret: H.adminKey, body: nil),
            Case(operation: "GET /v1/publications/{publicationId}/issues", method: "GET", path: "/v1/publications/monthly/issues?include=all", secret: nil, body: nil),
            Case(operation: "GET /v1/publications/{publicationId}/issues", method: "GET", path: "/v1/publications/monthly/issues?include=all", secret: reader.token, body: nil),
            Case(operation: "GET /v1/publications/{publicationId}/issues", method: "GET", path: "/v1/publications/none/issues", secret: nil, body: nil),
            Case(operation: "POST /v1/keys", method: "POST", path: "/v1/keys", secret: H.adminKey, body: #"{"role":"editor","publications":["none"]}"#),
            Case(operation: "POST /v1/keys", method: "POST", path: "/v1/keys", secret: reader.token, body: #"{"role":"service"}"#),
            Case(operation: "DELETE /v1/keys/{keyId}", method: "DELETE", path: "/v1/keys/key-none", secret: H.adminKey, body: nil),
            Case(operation: "POST /v1/accounts", method: "POST", path: "/v1/accounts", secret: nil, body: #"{"appAccountToken":"nope"}"#),
            Case(operation: "POST /v1/accounts", method: "POST", path: "/v1/accounts", secret: nil, body: #"{"appAccountToken":"3f0e4c1a-8d5b-4e6f-9a7c-2b1d0e9f8a7b"}"#),
            Case(operation: "POST /v1/accounts", method: "POST", path: "/v1/accounts", secret: nil, body: #"{"appAccountToken":"3F0E4C1A-8D5B-4E6F-9A7C-2B1D0E9F8A7B"}"#),
            Case(operation: "GET /v1/accounts/{accountId}/entitlements", method: "GET", path: "/v1/accounts/\(other.id)/entitlements", secret: reader.token, body: nil),
            Case(operation: "GET /v1/accounts/{accountId}/entitlements", method: "GET", path: "/v1/accounts/acct-none/entitlements", secret: H.adminKey, body: nil),
            Case(operation: "GET /v1/accounts/{accountId}/issues", method: "GET", path: "/v1/accounts/\(reader.id)/issues?publication=none", secret: reader.token, body: nil),
            Case(operation: "POST /v1/accounts/{accountId}/receipts", method: "POST", path: "/v1/accounts/\(reader.id)/receipts", secret: reader.token, body: #"{"receiptData":"***"}"#),
            Case(operation: "POST /v1/accounts/{accountId}/publications/{publicationId}/issues/{issueId}/token", method: "POST", path: "/v1/accounts/\(reader.id)/publications/monthly/issues/2026-01/token", secret: reader.token, body: nil),
            Case(operation: "POST /v1/accounts/{accountId}/publications/{publicationId}/issues/{issueId}/token", method: "POST", path: "/v1/accounts/\(reader.id)/publications/monthly/issues/2026-04/token", secret: reader.token, body: nil),
            Case(operation: "POST /v1/accounts/{accountId}/publications/{publicationId}/issues/{issueId}/token", method: "POST", path: "/v1/accounts/acct-none/publications/monthly/issues/2026-02/token", secret: H.adminKey, body: nil),
            Case(operation: "GET /v1/edge/verify", method: "GET", path: "/v1/edge/verify", secret: nil, body: nil),
            Case(operation: "GET /v1/edge/verify", method: "GET", path: "/v1/edge/verify", secret: "x.y.z", body: nil),
        ]
        let documented = operations(try document(h))
        var seen: [String: Set<Int>] = [:]
        for c in cases {
            let response = try h.client.send(c.method, c.path, as: c.secret, body: c.body.map { Array($0.utf8) })
            seen[c.operation, default: []].insert(response.status)
            let responses = try #require(documented[c.operation]?["responses"] as? [String: Any], "\(c.operation)")
            #expect(responses[String(response.status)] != nil,
                    "\(c.method) \(c.path) answered \(response.status), which /openapi.json does not list for \(c.operation)")
        }
        // The statuses a client most relies on, as seen above.
        #expect(seen["POST /v1/keys"] == [400, 403])
        #expect(seen["POST /v1/accounts"] == [400, 201, 409])
        #expect(seen["PUT /v1/publications/{publicationId}"] == [201, 400, 403, 413])
        // An unknown publication in a key request is the body's fault (400), not a missing resource.
        let keyAnswers = Set((documented["POST /v1/keys"]?["responses"] as? [String: Any] ?? [:]).keys)
        #expect(keyAnswers == ["201", "400", "401", "403", "413"])
    }
}
