import Testing
import Entitle
import GatewayStore
import IssueCatalog
import Wire

/// The orders `ReadTransaction` documents for an account's facts, which the read now gets from
/// its indexes rather than a sort (decision 113): transactions by environment, store, original
/// transaction, purchase date and transaction id; renewal infos by environment, store, original
/// transaction. Stored in another order, on purpose.
@Suite struct FactsReadOrderTests {
    private static func transaction(_ id: String, _ original: String, _ purchased: String,
                                    _ environment: StoreEnvironment = .production, _ store: Store = .appStore) -> Transaction {
        var t = Fixtures.transaction(id, original: original, purchased: purchased, expires: nil, environment: environment)
        t.store = store
        return t
    }

    private static func renewal(_ original: String, _ environment: StoreEnvironment = .production,
                                _ store: Store = .appStore) -> RenewalInfo {
        RenewalInfo(store: store, environment: environment, originalTransactionId: original, autoRenewStatus: true,
                    source: .receipt)
    }

    @Test(arguments: StoreBackend.all)
    func e1AnAccountsFactsComeInTheDocumentedOrder(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        try f.ingest("alice", [
            Self.transaction("x1", "Z", "2026-01-01T00:00:00Z", .sandbox),
            Self.transaction("b1", "B", "2026-01-03T00:00:00Z"),
            Self.transaction("in_s/1", "A", "2026-01-01T00:00:00Z", .production, .stripe),
            Self.transaction("a9", "A", "2026-01-05T00:00:00Z"),
            Self.transaction("b2", "B", "2026-01-02T00:00:00Z"),
            Self.transaction("a8", "A", "2026-01-05T00:00:00Z"),
        ], renewals: [Self.renewal("Z", .sandbox), Self.renewal("B"), Self.renewal("A", .production, .stripe), Self.renewal("A")])
        try f.ingest("bob", [Self.transaction("c1", "C", "2026-01-01T00:00:00Z")], renewals: [Self.renewal("C")])
        let order = try f.store.read { tx throws(StoreError) in
            (try tx.transactions(ofAccount: "alice").map(\.transactionId),
             try tx.renewalInfos(ofAccount: "alice").map { "\($0.environment.rawValue)/\($0.store.rawValue)/\($0.originalTransactionId)" })
        }
        #expect(order.0 == ["a8", "a9", "b2", "b1", "in_s/1", "x1"])
        #expect(order.1 == ["production/appStore/A", "production/appStore/B", "production/stripe/A", "sandbox/appStore/Z"])
        #expect(try f.store.accountFacts("alice").transactions.map(\.transactionId) == order.0)
    }
}
