import Entitle
import Foundation
@testable import GatewayConfiguration
import PostgresStore
import TestSupport
import Testing
import GatewayTesting

/// Two gateways on one PostgreSQL database, each with its own store (its own pool), caches and
/// change-feed follower, as two `serve` processes would have: what one commits reaches
/// the other's caches within a second; a gateway that cannot read the feed stops serving from
/// its caches.
@Suite(.tags(.integration, .postgres), .postgresCluster)
final class CrossProcessCacheTests {
    let gateways: TwoGateways
    var schema: TemporaryPostgresSchema { gateways.schema }
    var a: GatewayHarness { gateways.a }
    var b: GatewayHarness { gateways.b }

    init() throws { gateways = try TwoGateways() }

    @Test func aCatalogChangeAndAGrantThroughAShowInBsCachedListWithinOneSecond() throws {
        try a.seedCatalog()  // B built its catalog before: it hears of the change through the feed
        #expect(within { try b.client.get("/v1/publications/monthly/issues").status == 200 })
        let reader = try a.createAccount()
        let before = try b.entitledIssueKeys(reader)  // cached in B now
        #expect(try b.entitledIssueKeys(reader) == before)
        #expect(!before.contains("monthly/2026-01"))
        let grant = #"{"source":"print","externalId":"sub-1","publications":["monthly"],"start":"2026-01-10T00:00:00Z","end":"2026-02-10T00:00:00Z"}"#
        #expect(try a.client.post("/v1/accounts/\(reader.id)/grants", as: H.adminKey, json: grant).status == 201)
        let took = within { try b.entitledIssueKeys(reader).contains("monthly/2026-01") }
        #expect(took, "B still serves the list from before the grant")
    }

    @Test func aKeyRevokedOnAIs401OnBWithinOneSecond() throws {
        let key = try a.createKey(#"{"role":"service"}"#)
        let reader = try a.createAccount()
        let path = "/v1/accounts/\(reader.id)/entitlements"
        #expect(within { try b.client.get(path, as: key.secret).status == 200 })
        #expect(try b.client.get(path, as: key.secret).status == 200)  // resolved from B's cache now
        #expect(try a.client.delete("/v1/keys/\(key.id)", as: H.adminKey).status == 200)
        let took = within { try b.client.get(path, as: key.secret).status == 401 }
        #expect(took, "B still accepts the revoked key")
    }

    /// readers.md E35: a deleted account's token, resolved and kept by B, is 401 on B within a
    /// second of the deletion on A, and its id 404 there.
    @Test func e35AnAccountDeletedOnAIsGoneOnBWithinOneSecond() throws {
        let reader = try a.createAccount()
        let path = "/v1/accounts/\(reader.id)/entitlements"
        #expect(within { try b.client.get(path, as: reader.token).status == 200 })
        #expect(try b.client.get(path, as: reader.token).status == 200)  // resolved from B's cache now
        #expect(try a.client.delete("/v1/accounts/\(reader.id)", as: H.adminKey).status == 200)
        #expect(within { try b.client.get(path, as: reader.token).status == 401 }, "B still accepts the deleted account's token")
        #expect(try b.client.get(path, as: H.adminKey).status == 404)
    }

    /// readers.md E34: an ended session's token, resolved and kept by B, is 401 on B within a
    /// second of the sign-out on A.
    @Test func e34ASessionEndedOnAIs401OnBWithinOneSecond() throws {
        let reader = try a.createAccount()
        let path = "/v1/accounts/\(reader.id)/entitlements"
        #expect(within { try b.client.get(path, as: reader.token).status == 200 })
        #expect(try b.client.get(path, as: reader.token).status == 200)  // resolved from B's cache now
        #expect(try a.client.delete("/v1/sessions/current", as: reader.token).status == 200)
        let took = within { try b.client.get(path, as: reader.token).status == 401 }
        #expect(took, "B still accepts the ended session")
    }

    /// B loses the database: past a second without the feed it answers from the store (here a
    /// 503) rather than from what it cached; once back, it catches up with what another process
    /// changed meanwhile (the change log, not a notification it could not hear).
    @Test func aGatewayCutOffFromTheFeedStopsServingFromItsCachesAndCatchesUp() throws {
        try a.seedCatalog()
        let reader = try a.createAccount()
        _ = within { try b.client.get("/v1/publications/monthly/issues").status == 200 }
        let before = try b.entitledIssueKeys(reader)
        #expect(!before.contains("monthly/2026-01"))
        try schema.cutOff()
        #expect(within(.seconds(5)) {
            try b.client.get("/v1/accounts/\(reader.id)/issues?entitled=true", as: reader.token).status == 503
        }, "B kept serving its cached list without the feed")
        // Meanwhile another process, which still reaches the database, gives the reader a grant.
        let other = try PostgresStore(url: schema.ownerURL)
        _ = try other.give(Grant(grantId: "g-while-away", accountId: reader.id, source: "print", externalId: "away",
                                 publications: ["monthly"], start: H.start.adding(seconds: -60 * 86_400), end: nil,
                                 createdAt: H.start))
        try schema.restore()
        // Once B serves from its caches again, they hold nothing from before the grant.
        #expect(within(.seconds(5)) { b.runtime.core.coherence.isTrusted })
        #expect(try b.entitledIssueKeys(reader).contains("monthly/2026-01"), "B did not catch up with the grant given while it was away")
    }
}
