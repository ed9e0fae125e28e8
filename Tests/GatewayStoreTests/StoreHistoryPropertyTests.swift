import Testing
import IssueCatalog
import Entitle
import GatewayStore
import TestSupport
import Wire

/// The history against random descriptions of purchases arriving in random batches and orders:
/// every transaction is seen once, a repeat of everything records nothing (E1), and the last
/// refund event of a transaction agrees with what the store holds (E6).
@Suite struct StoreHistoryPropertyTests {
    static func descriptions(_ rng: inout SplitMix64) -> [Transaction] {
        var out: [Transaction] = []
        for id in 0..<Int.random(in: 1...5, using: &rng) {
            let month = Int64(id)
            let start = Fixtures.t0.adding(seconds: month * 30 * 86_400)
            for description in 0..<Int.random(in: 1...3, using: &rng) {
                var t = Transaction(environment: .production, transactionId: "t\(id)", originalTransactionId: "o\(id % 2)",
                                    productId: "monthly.1m", purchaseDate: start,
                                    expiresDate: start.adding(seconds: 30 * 86_400 + (rng.chance(30) ? 86_400 : 0)),
                                    source: .receipt,
                                    observedAt: Fixtures.t0.adding(seconds: Int64(Int.random(in: 0...5, using: &rng)) * 60))
                if rng.chance(40) { t.revocationDate = start.adding(seconds: 3600); t.revocationReason = 1 }
                if description > 0, rng.chance(20) { t.isUpgraded = true }
                out.append(t)
            }
        }
        return out
    }

    @Test(arguments: StoreBackend.all)
    func reingestingRecordsNothingAndRefundEventsEndInTheStoredState(_ backend: StoreBackend) throws {
        var rng = SplitMix64(seed: 13)
        for round in 0..<30 {
            let f = try IngestFixture(backend)
            let all = Self.descriptions(&rng).shuffled(using: &rng)
            var rest = all[...]
            while !rest.isEmpty {
                let batch = rest.prefix(Int.random(in: 1...3, using: &rng))
                rest = rest.dropFirst(batch.count)
                try f.ingest("alice", Array(batch))
            }
            let page = try #require(try f.store.history(ofAccount: "alice", after: nil, limit: 500))
            let ids = Set(all.map(\.transactionId))
            let seen = page.events.filter { $0.kind == .transactionSeen }.compactMap { $0.details["transactionId"]?.stringValue }
            #expect(seen.sorted() == ids.sorted(), "round \(round): each transaction seen exactly once")
            try f.ingest("alice", all.shuffled(using: &rng))
            #expect(try f.store.history(ofAccount: "alice", after: nil, limit: 500)?.events.count == page.events.count,
                    "round \(round): a repeat records nothing")
            for stored in try f.store.accountFacts("alice").transactions {
                let last = page.events.last {
                    ($0.kind == .refund || $0.kind == .refundReversed) && $0.details["transactionId"]?.stringValue == stored.transactionId
                }
                let refunded = stored.revocationDate != nil && !stored.isUpgraded
                #expect(refunded ? last?.kind == .refund : last == nil || last?.kind == .refundReversed,
                        "round \(round): \(stored.transactionId)")
            }
        }
    }
}
