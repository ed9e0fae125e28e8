import Foundation
@testable import GatewayConfiguration
import IssueCatalog
import Testing
import Wire
import GatewayTesting

/// The reader's issue list is kept rendered between requests; it must change the moment anything
/// it depends on changes: the clock reaching an issue's publication, a catalog change, new facts.
@Suite struct IssueListCacheTests {
    private func listed(_ h: H, _ reader: (id: String, token: String), _ query: String = "") throws -> [String] {
        let response = try h.client.get("/v1/accounts/\(reader.id)/issues\(query)", as: reader.token)
        #expect(response.status == 200)
        return response.objects("issues").map { "\($0["id"] as? String ?? "?"):\($0["entitled"] as? Bool ?? false)" }
    }

    @Test func aKeptListFollowsTheClockTheCatalogAndNewFacts() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        let before = try listed(h, reader, "?publication=monthly")
        #expect(before == ["2026-02:true", "2026-01:false"])
        #expect(try listed(h, reader, "?publication=monthly") == before, "asked again: the kept answer")

        // New facts: the subscription entitles 2026-01 (unlocked at its start, E13).
        try h.subscribe(reader.id)
        #expect(try listed(h, reader, "?publication=monthly") == ["2026-02:true", "2026-01:true"])

        // A catalog change: a new published issue appears at once.
        let body = H.issueBody(id: "2026-02b", publishedAt: "2026-02-15T00:00:00Z", paths: ["/content/monthly/2026-02b/a.pdf"])
        #expect(try h.client.post("/v1/publications/monthly/issues", as: H.adminKey, json: body).status == 201)
        #expect(try listed(h, reader, "?publication=monthly") == ["2026-02b:true", "2026-02:true", "2026-01:true"])

        // Time alone: the scheduled 2026-04 comes out; the subscription ended on 2026-03-15.
        h.clock.set(Instant(rfc3339: "2026-04-01T00:00:00Z")!)
        #expect(try listed(h, reader, "?publication=monthly") == ["2026-04:false", "2026-02b:true", "2026-02:true", "2026-01:true"])
        #expect(try listed(h, reader, "?publication=monthly&entitled=true") == ["2026-02b:true", "2026-02:true", "2026-01:true"])
    }
}
