import Foundation
@testable import GatewayConfiguration
import Testing
import GatewayTesting

/// `/openapi.json` describes the cheap-polling parameters, headers and answers of the routes that
/// have them, as the router really answers them.
@Suite struct PollingDocumentTests {
    @Test func listOperationsDocumentTheirTagsCodingsAndPages() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        let doc = try h.client.get("/openapi.json").json
        let paths = try #require(doc["paths"] as? [String: [String: Any]])
        let components = try #require(doc["components"] as? [String: Any])
        let parameters = components["parameters"] as? [String: [String: Any]] ?? [:]

        func operation(_ path: String) -> [String: Any] { paths[path]?["get"] as? [String: Any] ?? [:] }
        func declared(_ path: String) -> Set<String> {
            Set((operation(path)["parameters"] as? [[String: Any]] ?? []).compactMap { parameter in
                if let ref = parameter["$ref"] as? String {
                    return parameters[String(ref.split(separator: "/").last ?? "")]?["name"] as? String
                }
                return parameter["name"] as? String
            })
        }
        // (document path, a real request, whether it pages)
        let lists = [("/v1/publications", "/v1/publications", false), ("/v1/products", "/v1/products", false),
                     ("/v1/publications/{publicationId}/issues", "/v1/publications/monthly/issues", true),
                     ("/v1/accounts/{accountId}/issues", "/v1/accounts/\(reader.id)/issues", true)]
        for (path, target, pages) in lists {
            let expected: Set<String> = pages ? ["If-None-Match", "Accept-Encoding", "limit", "after"] : ["If-None-Match", "Accept-Encoding"]
            #expect(expected.isSubset(of: declared(path)), "\(path) declares \(expected)")
            let responses = operation(path)["responses"] as? [String: Any] ?? [:]
            let tag = try #require(try h.client.get(target, as: reader.token).header("ETag"))
            let notModified = try h.client.get(target, as: reader.token, headers: [("If-None-Match", tag)])
            #expect(notModified.status == 304 && responses["304"] != nil, "\(path) documents its 304")
            let headers = (responses["200"] as? [String: Any])?["headers"] as? [String: Any] ?? [:]
            #expect(Set(headers.keys).isSuperset(of: ["ETag", "Vary", "Content-Encoding"]), "\(path)")
            if pages {
                let bad = try h.client.get(target + "?limit=0", as: reader.token)
                #expect(bad.status == 400 && responses["400"] != nil, "\(path) documents its 400")
            }
        }
    }
}
