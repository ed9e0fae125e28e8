import Foundation
@testable import GatewayConfiguration
import Testing
import Wire
import GatewayTesting

/// Issue and catalog lists carry strong entity tags; `If-None-Match` with the current one is a
/// 304 with no body until something the list is made of changes for that reader (http-api.md,
/// "Reader lists are cheap to poll"; RFC 9110 §13.1.2).
@Suite struct ConditionalListTests {
    private func poll(_ h: H, _ path: String, as secret: String?, tag: String?) throws -> APIResponse {
        try h.client.get(path, as: secret, headers: tag.map { [("If-None-Match", $0)] } ?? [])
    }

    @Test func aReaderPollingGets304UntilItsListChanges() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount(), other = try h.createAccount()
        let path = "/v1/accounts/\(reader.id)/issues"
        let first = try poll(h, path, as: reader.token, tag: nil)
        #expect(first.status == 200)
        let tag = try #require(first.header("ETag"))
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"), "a strong tag")

        // Unchanged: 304, no body, the tag again; the second poll is served by the fast path.
        for _ in 0..<2 {
            let again = try poll(h, path, as: reader.token, tag: tag)
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.header("ETag") == tag)
        }
        // Another reader's new facts change nothing for this one.
        try h.subscribe(other.id, original: "other-sub")
        #expect(try poll(h, path, as: reader.token, tag: tag).status == 304)

        // New facts for this reader: a new list, a new tag.
        try h.subscribe(reader.id)
        let afterFacts = try poll(h, path, as: reader.token, tag: tag)
        #expect(afterFacts.status == 200)
        let factsTag = try #require(afterFacts.header("ETag"))
        #expect(factsTag != tag)
        #expect(try poll(h, path, as: reader.token, tag: factsTag).status == 304)

        // A catalog edit: a new published issue.
        let body = H.issueBody(id: "2026-02b", publishedAt: "2026-02-15T00:00:00Z", paths: ["/content/monthly/2026-02b/a.pdf"])
        #expect(try h.client.post("/v1/publications/monthly/issues", as: H.adminKey, json: body).status == 201)
        let afterEdit = try poll(h, path, as: reader.token, tag: factsTag)
        #expect(afterEdit.status == 200)
        #expect(afterEdit.objects("issues").contains { $0["id"] as? String == "2026-02b" })
        let editTag = try #require(afterEdit.header("ETag"))
        #expect(editTag != factsTag)

        // The time alone: the scheduled 2026-04 comes out.
        h.clock.set(Instant(rfc3339: "2026-04-02T00:00:00Z")!)
        #expect(try poll(h, path, as: reader.token, tag: editTag).status == 200)

        // Other lists of the reader have their own tags.
        let monthly = try poll(h, path + "?publication=monthly", as: reader.token, tag: nil)
        #expect(monthly.status == 200 && monthly.header("ETag") != nil && monthly.header("ETag") != editTag)
    }

    @Test func ifNoneMatchListsStarAndWeakTagsFollowRFC9110() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        let path = "/v1/accounts/\(reader.id)/issues"
        let tag = try #require(try poll(h, path, as: reader.token, tag: nil).header("ETag"))
        #expect(try poll(h, path, as: reader.token, tag: "\"other\", \(tag)").status == 304, "a list naming it")
        #expect(try poll(h, path, as: reader.token, tag: "*").status == 304)
        // §13.1.2: If-None-Match uses the weak comparison, so W/"x" matches "x".
        #expect(try poll(h, path, as: reader.token, tag: "W/" + tag).status == 304)
        #expect(try poll(h, path, as: reader.token, tag: "\"other\"").status == 200)
        #expect(try poll(h, path, as: reader.token, tag: String(tag.dropLast())).status == 200, "malformed: ignored")
        // Another reader's tag is not this reader's, even for the same catalog.
        let stranger = try h.createAccount()
        try h.subscribe(stranger.id)
        let strangerTag = try poll(h, "/v1/accounts/\(stranger.id)/issues", as: stranger.token, tag: nil).header("ETag")
        #expect(strangerTag != tag)
    }

    @Test func catalogListsAre304UntilTheCatalogChanges() throws {
        let h = try H()
        try h.seedCatalog()
        let lists = ["/v1/publications", "/v1/products", "/v1/products?all=true", "/v1/publications/monthly/issues",
                     "/v1/publications/monthly/issues?include=all"]
        var tags: [String: String] = [:]
        for path in lists {
            let response = try poll(h, path, as: H.adminKey, tag: nil)
            #expect(response.status == 200, "\(path)")
            tags[path] = try #require(response.header("ETag"))
            let again = try poll(h, path, as: H.adminKey, tag: tags[path])
            #expect(again.status == 304 && again.body.isEmpty, "\(path)")
        }
        #expect(Set(tags.values).count == lists.count, "every list has its own tag")

        // Each edit changes the lists it shows in.
        #expect(try h.client.put("/v1/publications/weekly", as: H.adminKey, json: #"{"title":"The Weekly Paper"}"#).status == 200)
        #expect(try poll(h, "/v1/publications", as: H.adminKey, tag: tags["/v1/publications"]).status == 200)
        #expect(try h.client.put("/v1/products/monthly.1m", as: H.adminKey, json: """
            {"kind":"autoRenewable","grants":["monthly"],"subscriptionGroup":"monthly-group","level":2,"platform":"ios"}
            """).status == 200)
        #expect(try poll(h, "/v1/products", as: H.adminKey, tag: tags["/v1/products"]).status == 200)
        let body = H.issueBody(id: "2026-02b", publishedAt: "2026-02-15T00:00:00Z", paths: ["/content/monthly/2026-02b/a.pdf"])
        #expect(try h.client.post("/v1/publications/monthly/issues", as: H.adminKey, json: body).status == 201)
        let issues = "/v1/publications/monthly/issues"
        #expect(try poll(h, issues, as: H.adminKey, tag: tags[issues]).status == 200)
        // The time alone: the scheduled 2026-04 is published, which the editors' list shows.
        let allIssues = issues + "?include=all"
        let current = try #require(try poll(h, allIssues, as: H.adminKey, tag: nil).header("ETag"))
        h.clock.set(Instant(rfc3339: "2026-04-02T00:00:00Z")!)
        #expect(try poll(h, allIssues, as: H.adminKey, tag: current).status == 200)
    }
}
