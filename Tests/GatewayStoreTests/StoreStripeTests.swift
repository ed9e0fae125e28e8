import Entitle
import GatewayStore
import IssueCatalog
import Testing
import Wire

/// What the Stripe mapping asks of every backend: an invoice's stored lines by `invoiceId/`, and
/// an owner the store names (E4) binding a subscription before and after its facts arrive.
@Suite struct StoreStripeTests {
    static func line(_ invoice: String, _ line: String, subscription: String = "sub_1") -> Transaction {
        Transaction(store: .stripe, environment: .production, transactionId: invoice + "/" + line, originalTransactionId: subscription,
                    productId: "price_monthly", purchaseDate: Fixtures.t0, expiresDate: Fixtures.t0.adding(seconds: 86_400),
                    source: .stripeEvent)
    }

    @Test(arguments: StoreBackend.all) func anInvoicesLinesAndNoOther(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        // `in_1` must not find `in_10`'s lines, nor `in_1x`'s (LIKE would read `_` as any character).
        // Its lines in two subscriptions are each found once, in id order.
        try f.ingest(nil, [Self.line("in_1", "il_b"), Self.line("in_1", "il_a"), Self.line("in_10", "il_c"), Self.line("inX1", "il_d"),
                           Self.line("in_1", "il_ab", subscription: "sub_2")])
        #expect(try f.store.transactions(stripeInvoice: "in_1", environment: .production).map(\.transactionId)
                == ["in_1/il_a", "in_1/il_ab", "in_1/il_b"])
        #expect(try f.store.transactions(stripeInvoice: "in_1", environment: .sandbox).isEmpty)
    }

    @Test(arguments: StoreBackend.all) func e4ANamedOwnerBindsBeforeTheFactsAndWinsOverKeep(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        let key = SubscriptionKey(store: .stripe, environment: .production, originalTransactionId: "sub_1")
        var named = IngestBatch(accountId: nil, transactions: [], at: Fixtures.t0)
        named.namedOwners = [key: "alice"]
        _ = try f.store.ingest(named, policy: .keep).stored()
        #expect(try f.store.owner(of: key) == "alice")
        try f.ingest(nil, [Self.line("in_1", "il_a")])
        #expect(try f.transactionIds("alice") == ["in_1/il_a"])
        // Another account named later takes it, even under `keep`; an unknown name changes nothing.
        named.namedOwners = [key: "bob"]
        let moved = try f.store.ingest(named, policy: .keep).stored()
        #expect(moved.previousOwners == ["alice"])
        #expect(try f.transactionIds("bob") == ["in_1/il_a"] && f.transactionIds("alice").isEmpty)
        named.namedOwners = [key: "nobody"]
        _ = try f.store.ingest(named, policy: .keep).stored()
        #expect(try f.store.owner(of: key) == "bob")
    }

    @Test(arguments: StoreBackend.all) func aCustomersSubscriptionsAndTheirOwner(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        let key = SubscriptionKey(store: .stripe, environment: .production, originalTransactionId: "sub_1")
        var batch = IngestBatch(accountId: "alice", transactions: [Self.line("in_1", "il_a")], at: Fixtures.t0)
        batch.customers = [key: "cus_9"]
        _ = try f.store.ingest(batch, policy: .transfer).stored()
        let found = try f.store.lookup(customerId: "cus_9", store: .stripe, environment: nil)
        #expect(found?.accountId == "alice" && found?.originalTransactionId == "sub_1" && found?.store == .stripe)
        #expect(try f.store.lookup(customerId: "cus_9", store: .stripe, environment: .sandbox) == nil)
        #expect(try f.store.lookup(customerId: "cus_8", store: .stripe, environment: nil) == nil)
    }
}
