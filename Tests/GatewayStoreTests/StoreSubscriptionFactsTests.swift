import Testing
import IssueCatalog
import Entitle
import GatewayStore
import TestSupport
import Wire

/// A subscription's transactions kept as one row (decision 118), through the units of work on
/// every backend: E1's identity decides what replaces what, wherever the fact was stored.
@Suite struct StoreSubscriptionFactsTests {
    static let a = SubscriptionKey(environment: .production, originalTransactionId: "A")
    static let b = SubscriptionKey(environment: .production, originalTransactionId: "B")

    @Test(arguments: StoreBackend.all)
    func e1ALaterDescriptionInOneSaveReplacesTheEarlierAndEachSubscriptionKeepsPurchaseOrder(_ backend: StoreBackend) throws {
        let opened = try backend.open()
        let store = opened.store
        var renewed = Fixtures.transaction("2", original: "A", purchased: "2026-02-01T00:00:00Z", expires: "2026-03-01T00:00:00Z")
        let first = Fixtures.transaction("1", original: "A")
        let other = Fixtures.transaction("3", original: "B", product: "weekly.1w")
        try store.write { tx throws(StoreError) in
            try tx.save([renewed, first, other])
            renewed.isUpgraded = true
            try tx.save([renewed])
            try tx.save([renewed])
        }
        #expect(try store.transactions(ofSubscription: Self.a) == [first, renewed])
        #expect(try store.transactions(ofSubscription: Self.b) == [other])
        #expect(try store.read { tx throws(StoreError) in try tx.transaction(renewed.key) } == renewed)
    }

    /// E1's merge read, which the save then reads no more: the subscription that holds the
    /// transaction, even when the caller names another; else the one the caller names; nil when
    /// that one has nothing stored.
    @Test(arguments: StoreBackend.all)
    func e1TheMergeReadFindsTheSubscriptionHoldingTheTransactionElseTheOneNamed(_ backend: StoreBackend) throws {
        let opened = try backend.open()
        let store = opened.store
        let held = Fixtures.transaction("1", original: "A"), other = Fixtures.transaction("2", original: "B")
        try store.write { tx throws(StoreError) in try tx.save([held, other]) }
        func read(_ id: String, else original: String) throws -> (key: SubscriptionKey, transactions: [Transaction])? {
            try store.read { tx throws(StoreError) in
                try tx.subscription(holding: TransactionKey(environment: .production, transactionId: id),
                                    else: SubscriptionKey(environment: .production, originalTransactionId: original))
            }
        }
        let moving = try read("1", else: "B")
        #expect(moving?.key == Self.a)
        #expect(moving?.transactions == [held])
        let renewal = try read("3", else: "B")
        #expect(renewal?.key == Self.b)
        #expect(renewal?.transactions == [other])
        #expect(try read("3", else: "C") == nil)
    }

    @Test(arguments: StoreBackend.all)
    func e1ATransactionDescribedUnderAnotherSubscriptionMovesThere(_ backend: StoreBackend) throws {
        let opened = try backend.open()
        let store = opened.store
        let stored = Fixtures.transaction("1", original: "A", expires: "2026-05-01T00:00:00Z")
        try store.write { tx throws(StoreError) in try tx.save(stored) }
        var moved = stored
        moved.originalTransactionId = "B"
        try store.write { tx throws(StoreError) in try tx.save(moved) }
        #expect(try store.transactions(ofSubscription: Self.a) == [])
        #expect(try store.transactions(ofSubscription: Self.b) == [moved])
        #expect(try store.read { tx throws(StoreError) in try tx.transaction(stored.key) } == moved)
        // The poller sees the subscription that holds it now, by its latest expiry, and no other.
        let due = try store.subscriptionsToPoll(expiringBefore: Fixtures.instant("2026-06-01T00:00:00Z"),
                                                notBefore: Fixtures.instant("2026-01-01T00:00:00Z"), limit: 10)
        #expect(due.map(\.subscription) == [Self.b])
        #expect(due.first?.latestExpiresDate == Fixtures.instant("2026-05-01T00:00:00Z"))
    }

    /// Through the ingest, whose E1 merge has read where each fact is stored (`save(merged:)`):
    /// a newer description under another subscription moves the fact there, across batches and
    /// within one batch that describes it under C and then under D.
    @Test(arguments: StoreBackend.all)
    func e1AnIngestedTransactionMovesToTheSubscriptionOfItsNewerDescription(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        func described(_ id: String, under original: String, observed: String) -> Transaction {
            var t = Fixtures.transaction(id, original: "A")
            t.originalTransactionId = original
            t.observedAt = Fixtures.instant(observed)
            return t
        }
        let key = { (original: String) in SubscriptionKey(environment: .production, originalTransactionId: original) }
        try f.ingest("alice", [described("1", under: "A", observed: "2026-01-01T00:00:00Z")])
        let moved = described("1", under: "B", observed: "2026-01-02T00:00:00Z")
        try f.ingest("alice", [moved])
        #expect(try f.store.transactions(ofSubscription: key("A")) == [])
        #expect(try f.store.transactions(ofSubscription: key("B")) == [moved])

        let last = described("2", under: "D", observed: "2026-01-04T00:00:00Z")
        try f.ingest("alice", [described("2", under: "C", observed: "2026-01-03T00:00:00Z"), last])
        #expect(try f.store.transactions(ofSubscription: key("C")) == [])
        #expect(try f.store.transactions(ofSubscription: key("D")) == [last])
        #expect(try f.store.read { tx throws(StoreError) in try tx.transaction(last.key) } == last)
    }

    @Test(arguments: StoreBackend.all)
    func aSubscriptionsLatestExpiryIsItsGreatestWhateverTheOrderSaved(_ backend: StoreBackend) throws {
        let opened = try backend.open()
        let store = opened.store
        try store.write { tx throws(StoreError) in
            try tx.save(Fixtures.transaction("2", original: "A", purchased: "2026-02-01T00:00:00Z", expires: "2026-04-01T00:00:00Z"))
            try tx.save(Fixtures.transaction("1", original: "A", expires: "2026-02-01T00:00:00Z"))
            try tx.save(Fixtures.transaction("3", original: "B", expires: nil))
        }
        let due = try store.subscriptionsToPoll(expiringBefore: Fixtures.instant("2026-03-01T00:00:00Z"),
                                                notBefore: Fixtures.instant("2026-01-01T00:00:00Z"), limit: 10)
        #expect(due.isEmpty, "A's latest expiry is in April, B has none")
        let later = try store.subscriptionsToPoll(expiringBefore: Fixtures.instant("2026-05-01T00:00:00Z"),
                                                  notBefore: Fixtures.instant("2026-01-01T00:00:00Z"), limit: 10)
        #expect(later.map(\.subscription) == [Self.a])
    }
}
