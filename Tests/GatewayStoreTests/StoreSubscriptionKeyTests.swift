import Testing
import IssueCatalog
import Entitle
import GatewayStore
import Wire

/// E1 and E23: a subscription is (store, environment, originalTransactionId). What is kept per
/// subscription (owner, renewal info, latest receipt, fetched history, poll target) is kept per
/// store, on every backend.
@Suite struct StoreSubscriptionKeyTests {
    @Test(arguments: StoreBackend.all)
    func oneIdAndEnvironmentInTwoStoresAreTwoSubscriptions(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        let (apple, play) = StoreIdentityTests.twins("1000")
        let appleRenewal = RenewalInfo(environment: .production, originalTransactionId: "1000", autoRenewStatus: true,
                                       source: .receipt)
        let playRenewal = RenewalInfo(store: .googlePlay, environment: .production, originalTransactionId: "1000",
                                      autoRenewStatus: false, isInBillingRetry: true, source: .receipt)
        try f.ingest("alice", [apple], renewals: [appleRenewal], receipt: "QVBQTEU=", policy: .keep)
        // E4 under `keep`: Bob's purchase in the other store is not Alice's subscription.
        let result = try f.ingest("bob", [play], renewals: [playRenewal], receipt: "UExBWQ==", policy: .keep)
        #expect(result.owners == [play.subscriptionKey: "bob"])
        #expect(result.previousOwners.isEmpty)
        #expect(try f.store.owner(of: apple.subscriptionKey) == "alice")
        #expect(try f.store.owner(of: play.subscriptionKey) == "bob")

        let alice = try f.store.accountFacts("alice").facts
        let bob = try f.store.accountFacts("bob").facts
        #expect(alice.transactions == [apple] && bob.transactions == [play])
        #expect(alice.renewals == [appleRenewal] && bob.renewals == [playRenewal])

        let appleReceipt = try f.store.latestReceipt(for: apple.subscriptionKey)
        let playReceipt = try f.store.latestReceipt(for: play.subscriptionKey)
        #expect(appleReceipt?.receiptData == "QVBQTEU=" && appleReceipt?.accountId == "alice")
        #expect(playReceipt?.receiptData == "UExBWQ==" && playReceipt?.accountId == "bob")

        let due = try f.store.subscriptionsToPoll(expiringBefore: Fixtures.instant("2026-03-01T00:00:00Z"),
                                                  notBefore: Fixtures.t0, limit: 10)
        #expect(due.map(\.subscription) == [apple.subscriptionKey, play.subscriptionKey])
        #expect(due.map(\.accountId) == ["alice", "bob"])
        #expect(due.map(\.isInBillingRetry) == [false, true])
        #expect(due.map(\.receiptData) == ["QVBQTEU=", "UExBWQ=="])

        var fetched = IngestBatch(accountId: "bob", transactions: [play], at: Fixtures.t0)
        fetched.historyFetched = [play.subscriptionKey]
        _ = try f.store.ingest(fetched, policy: .keep).stored()
        #expect(try f.store.historiesNotFetched([apple.subscriptionKey, play.subscriptionKey]) == [apple.subscriptionKey])
    }

    /// The App Store status poller asks for Apple's subscriptions only: a Play subscription due in
    /// the same window is not among them, on every backend.
    @Test(arguments: StoreBackend.all)
    func pollTargetsCanBeAskedForOneStore(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        let (apple, play) = StoreIdentityTests.twins("2000")
        try f.ingest("alice", [apple], receipt: "QVBQTEU=", policy: .keep)
        try f.ingest("bob", [play], receipt: "UExBWQ==", policy: .keep)
        let window = (before: Fixtures.instant("2026-03-01T00:00:00Z"), notBefore: Fixtures.t0)
        let apples = try f.store.subscriptionsToPoll(expiringBefore: window.before, notBefore: window.notBefore, limit: 10,
                                                     store: .appStore)
        #expect(apples.map(\.subscription) == [apple.subscriptionKey])
        let plays = try f.store.subscriptionsToPoll(expiringBefore: window.before, notBefore: window.notBefore, limit: 10,
                                                    store: .googlePlay)
        #expect(plays.map(\.subscription) == [play.subscriptionKey])
    }

    /// A transfer (E4) of one store's subscription leaves the other store's, same id, where it is.
    @Test(arguments: StoreBackend.all)
    func aTransferMovesOnlyItsStoresSubscription(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        let (apple, play) = StoreIdentityTests.twins("2000")
        try f.ingest("alice", [apple, play])
        let result = try f.ingest("bob", [play], policy: .transfer)
        #expect(result.previousOwners == ["alice"])
        #expect(try f.store.accountFacts("alice").transactions == [apple])
        #expect(try f.store.accountFacts("bob").transactions == [play])
    }
}
