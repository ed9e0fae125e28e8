import Foundation
@testable import GatewayConfiguration
import PostgresStore
import Synchronization
import TestSupport
import Testing
import GatewayTesting

/// Three gateways on one PostgreSQL database, each a real server on its own port with its own
/// store (pool), caches and change-feed follower, sharing one App Store (the simulator), under
/// the `keep` policy.
@Suite(.tags(.integration, .postgres), .postgresCluster)
final class ThreeGatewayFlowTests {
    let schema: TemporaryPostgresSchema
    let a: AppStoreFlow
    let b: AppStoreFlow
    let c: AppStoreFlow

    init() throws {
        schema = try TemporaryPostgresSchema()
        a = try AppStoreFlow(policy: .keep, store: try schema.open())
        b = try AppStoreFlow(policy: .keep, store: try schema.open(), peerOf: a)
        c = try AppStoreFlow(policy: .keep, store: try schema.open(), peerOf: a)
        for flow in [a, b, c] { try #require(flow.runtime.changeFeedFollower).start() }
    }

    deinit {
        for flow in [c, b, a] { flow.stop() }  // the App Store, a's, goes last
    }

    @Test func aReceiptTakenByAShowsInBsIssueListWithinOneSecond() throws {
        let reader = try a.newReader()
        #expect(try b.entitledIssues(reader).isEmpty)  // and cached in B
        #expect(try a.sendReceipt(FlowFixtures.production, for: reader).status == 200)
        #expect(within { try b.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"] },
                "B still lists what it cached before the receipt")
    }

    @Test func aRefundTakenByBMakesARefuseATokenWithinOneSecond() throws {
        let reader = try a.newReader()
        #expect(try a.sendReceipt(FlowFixtures.production, for: reader).status == 200)
        #expect(try a.tokenStatus(reader, issue: "2026-03").status == 200)  // A holds the facts now
        try a.simulator.refund(transactionId: "10002", in: FlowFixtures.production, at: FlowFixtures.at("2026-03-18T00:00:00Z"))
        #expect(try b.notify(try b.simulator.notificationV1(FlowFixtures.production, type: "REFUND")).status == 200)
        #expect(within { try a.tokenStatus(reader, issue: "2026-03").status == 403 },
                "A still signs a token for the refunded issue")
    }

    @Test func aKeyRevokedOnAIs401OnCWithinOneSecond() throws {
        let created = try a.post("/v1/keys", json: ["role": "service"])
        let keyId = try #require(created.json["keyId"] as? String)
        let secret = try #require(created.json["key"] as? String)
        let reader = try a.newReader()
        let path = "/v1/accounts/\(reader.id)/entitlements"
        #expect(try c.call("GET", path, bearer: secret).status == 200)  // resolved and cached in C
        #expect(try a.call("DELETE", "/v1/keys/\(keyId)").status == 200)
        #expect(within { try c.call("GET", path, bearer: secret).status == 401 }, "C still accepts the revoked key")
    }

    /// E4 under `keep` across processes: 50 readers post the same receipt at once, half to A,
    /// half to B: exactly one owns the subscription, every other is refused.
    @Test func fiftyConcurrentReceiptsOverAAndBLeaveExactlyOneOwner() throws {
        // Created over all three: account creation is limited per client address.
        let readers = try (0..<50).map { index in try [a, b, c][index % 3].newReader() }
        let statuses = Mutex<[Int]>([])
        let group = DispatchGroup()
        for (index, reader) in readers.enumerated() {
            group.enter()
            Thread { [a, b] in
                let status = (try? (index % 2 == 0 ? a : b).sendReceipt(FlowFixtures.production, for: reader).status) ?? 0
                statuses.withLock { $0.append(status) }
                group.leave()
            }.start()
        }
        group.wait()
        let all = statuses.withLock { $0 }
        #expect(all.filter { $0 == 200 }.count == 1)
        #expect(all.filter { $0 == 409 }.count == 49, "\(all)")
        let owners = try readers.filter { try !a.storedTransactionIds($0).isEmpty }
        #expect(owners.count == 1)
    }

    /// The status poller runs in one of the three at a time (its lease; takeover is
    /// `PostgresStoreTests.aJobLeaseHasOneHolderAndPassesOnWhenItsSessionEnds`).
    @Test func theStatusPollerRunsInOneGatewayAtATime() throws {
        let pollers = try [a, b, c].map { try #require($0.runtime.poller) }
        #expect(pollers.filter(\.holdsLease).count == 1)
        #expect(pollers.filter(\.holdsLease).count == 1)
    }

    /// The notification backfill's periodic passes too ("the status poller, the
    /// notification backfill and any periodic job run in one process at a time").
    @Test func theNotificationBackfillRunsInOneGatewayAtATime() throws {
        let first = try AppStoreFlow(policy: .keep, serverAPI: true, store: try schema.open())
        let others = try (0..<2).map { _ in try AppStoreFlow(policy: .keep, serverAPI: true, store: try schema.open(), peerOf: first) }
        defer { for flow in others + [first] { flow.stop() } }
        let backfills = try ([first] + others).map { try #require($0.runtime.backfill) }
        #expect(backfills.filter(\.holdsLease).count == 1)
        #expect(backfills.filter(\.holdsLease).count == 1)
    }
}
