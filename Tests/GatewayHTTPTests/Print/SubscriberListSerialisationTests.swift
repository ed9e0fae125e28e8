import Foundation
@testable import GatewayConfiguration
import GatewayStore
import Synchronization
import TestSupport
import Testing
import GatewayTesting

/// E29: a whole list (`PUT /v1/publications/{p}/subscribers`) ends the subscribers it did not name,
/// so two whole lists of one publication sent at once are applied one after the other, as if sent
/// in turn, whichever process takes each: never each ending the other's subscribers. Two gateways
/// on one store: two SQLite stores on one file, or two PostgreSQL pools on one schema.
@Suite struct SubscriberListSerialisationTests {
    /// Several batches of `SubscriberLists.batchSize` each, so that the two lists' units of work interleave unless serialised.
    static let rows = 4500

    static func list(_ prefix: String) -> [UInt8] {
        var csv = "customerNumber,verification,start,end\n"
        for i in 0..<rows { csv += "\(prefix)-\(i),PC \(i),2025-12-01T00:00:00Z,\n" }
        return Array(csv.utf8)
    }

    /// The numbers of the publication's subscribers running at the harness's time.
    static func running(_ h: H) throws -> Set<String> {
        let now = h.clock.now()
        return Set(try h.runtime.core.store.read { tx throws(StoreError) in
            try tx.subscribers(of: "monthly", notInList: "", runningAt: now, limit: 4 * rows)
        }.map(\.customerNumber))
    }

    /// Sends list A through `a` and list B through `b` at once; the outcome must be one list's
    /// subscribers running and all of the other's ended, each answer counting what it did in turn.
    func sendAtOnce(_ a: H, _ b: H) throws {
        let harnesses = [a, b], prefixes = ["A", "B"]
        let bodies = prefixes.map(Self.list)
        let answers = Mutex<[String: (status: Int, added: Int, ended: Int)]>([:])
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            let answer = try? harnesses[i].client.send("PUT", "/v1/publications/monthly/subscribers", as: H.adminKey,
                                                       body: bodies[i], contentType: "text/csv")
            let counts = (status: answer?.status ?? 0, added: answer?.json["added"] as? Int ?? -1,
                          ended: answer?.json["ended"] as? Int ?? -1)
            answers.withLock { $0[prefixes[i]] = counts }
        }
        let taken = answers.withLock { $0 }
        #expect(taken.values.allSatisfy { $0.status == 200 && $0.added == Self.rows }, "\(taken)")
        #expect(taken.values.map(\.ended).sorted() == [0, Self.rows], "the second ends all of the first, the first none: \(taken)")
        let running = try Self.running(a)
        let later = try #require(taken.first { $0.value.ended == Self.rows }?.key)
        let ofLater = running.filter { $0.hasPrefix(later + "-") }.count
        #expect(ofLater == Self.rows && running.count == Self.rows, "only the list applied last runs")
    }

    @Test func e29TwoWholeListsAtOnceAreAppliedInTurnOnSQLite() throws {
        let a = try H()
        try a.seedCatalog()
        let b = try H(store: try a.database.open())  // a second process on the same file
        try sendAtOnce(a, b)
    }

    @Test(.postgresCluster) func e29TwoWholeListsAtOnceAreAppliedInTurnOnPostgreSQL() throws {
        let gateways = try TwoGateways()
        try gateways.a.seedCatalog()
        #expect(within(.seconds(5)) { try gateways.b.client.get("/v1/publications/monthly/issues").status == 200 })
        try sendAtOnce(gateways.a, gateways.b)
    }
}
