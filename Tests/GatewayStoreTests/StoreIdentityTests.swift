import Testing
import IssueCatalog
import Entitle
import GatewayStore
import Wire

/// E1 as amended: a transaction is (store, environment, transactionId); and a catalog product's
/// `store` and `storeProductId` (Vocabulary: Product) are kept, on every backend.
@Suite struct StoreIdentityTests {
    static func inStore(_ store: Store, _ t: Transaction) -> Transaction {
        var t = t
        t.store = store
        return t
    }

    /// One App Store transaction and its twin in Google Play: the same ids, the same environment.
    static func twins(_ id: String) -> (apple: Transaction, play: Transaction) {
        let apple = Fixtures.transaction(id, original: id)
        return (apple, inStore(.googlePlay, apple))
    }

    @Test(arguments: StoreBackend.all)
    func oneIdAndEnvironmentInTwoStoresIsTwoTransactions(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        let (apple, play) = Self.twins("1000")
        try f.ingest("alice", [apple, play])
        #expect(try f.store.accountFacts("alice").transactions.map(\.store) == [.appStore, .googlePlay])
        // E1: the same facts again change nothing; newer facts about one change only that one.
        try f.ingest("alice", [play, apple])
        var refunded = play
        refunded.revocationDate = Fixtures.instant("2026-01-15T00:00:00Z")
        refunded.observedAt = Fixtures.instant("2026-01-15T00:00:00Z")
        try f.ingest("alice", [refunded])
        let stored = try f.store.accountFacts("alice").transactions
        #expect(stored.count == 2)
        #expect(stored.first { $0.store == .googlePlay }?.revocationDate == refunded.revocationDate)
        #expect(stored.first { $0.store == .appStore }?.revocationDate == nil)
        let read = try f.store.read { tx throws(StoreError) in try tx.transaction(play.key) }
        #expect(read?.store == .googlePlay && read?.revocationDate == refunded.revocationDate)
    }

    @Test(arguments: StoreBackend.all)
    func aProductsStoreFieldsRoundTrip(_ backend: StoreBackend) throws {
        let opened = try backend.open()
        let store = opened.store
        var catalog = Fixtures.catalog
        catalog.products += [
            Product(id: "monthly.1m.play", store: .googlePlay, storeProductId: "monthly.1m", kind: .autoRenewable,
                    grants: ["monthly"], subscriptionGroup: "g.play", level: 1),
            Product(id: "monthly.web", store: .stripe, storeProductId: "price_1MoBy5LkdIwHu7ix", kind: .autoRenewable,
                    grants: ["monthly"], subscriptionGroup: "g.web", level: 1),
        ]
        try store.importCatalog(catalog)
        #expect(try store.loadCatalog() == catalog.normalized())
        let moved = Product(id: "weekly.free", store: .googlePlay, storeProductId: "weekly", kind: .free, grants: ["weekly"])
        #expect(try store.upsertProduct(moved) == .saved(.created))
        let loaded = try store.loadCatalog().products.first { $0.id == "weekly.free" }
        #expect(loaded == moved)
    }
}

extension StoreIdentityTests {
    @Test(arguments: StoreBackend.all)
    func aSecondProductForOneStoreIdIsAConflictAndChangesNothing(_ backend: StoreBackend) throws {
        let opened = try backend.openWithCatalog()
        let store = opened.store
        let revision = try store.catalogRevision()
        let twin = Product(id: "monthly.twin", storeProductId: "monthly.1m", kind: .free, grants: ["monthly"])
        #expect(try store.upsertProduct(twin) == .storeProductTaken(by: "monthly.1m"))
        #expect(try store.catalogRevision() == revision)
        #expect(try store.loadCatalog() == Fixtures.catalog.normalized())
        // The same store id in another store is another product.
        var play = twin
        play.store = .googlePlay
        #expect(try store.upsertProduct(play) == .saved(.created))
    }
}
