import Testing
import IssueCatalog
import Entitle
import GatewayStore

/// A store with accounts alice, bob and carol (who holds the appAccountToken `token-carol`).
struct IngestFixture {
    let opened: OpenedStore
    var store: any GatewayStore { opened.store }

    init(_ backend: StoreBackend) throws {
        opened = try backend.open()
        for id in ["alice", "bob"] { try store.createAccount(Fixtures.account(id)) }
        try store.createAccount(Fixtures.account("carol", appAccountToken: "token-carol"))
    }

    /// What was stored; throws `IngestRefused` when E4 refused the batch.
    @discardableResult
    func ingest(_ account: String?, _ transactions: [Transaction], renewals: [RenewalInfo] = [],
                receipt: String? = nil, policy: OwnershipPolicy = .transfer) throws -> IngestResult {
        try outcome(account, transactions, renewals: renewals, receipt: receipt, policy: policy).stored()
    }

    func outcome(_ account: String?, _ transactions: [Transaction], renewals: [RenewalInfo] = [],
                 receipt: String? = nil, policy: OwnershipPolicy = .transfer) throws -> IngestOutcome {
        try store.ingest(IngestBatch(accountId: account, transactions: transactions, renewalInfos: renewals,
                                     receiptData: receipt, at: Fixtures.t0), policy: policy)
    }

    func transactionIds(_ account: String) throws -> [String] {
        try store.accountFacts(account).transactions.map(\.transactionId)
    }

    func version(_ account: String) throws -> Int64 { try store.accountFacts(account).version }
}

/// E4 refused a batch a test expected stored.
struct IngestRefused: Error { let owner: String }
/// A batch a test expected stored named an account the store does not have.
struct IngestUnknownAccount: Error {}

extension IngestOutcome {
    func stored() throws -> IngestResult {
        switch self {
        case .stored(let result): return result
        case .refused(let owner): throw IngestRefused(owner: owner)
        case .unknownAccount: throw IngestUnknownAccount()
        }
    }
}

/// E1 and E4 through the ingest written once above the store (`FactIngestor`), on every backend.
@Suite struct StoreIngestTests {

    @Test(arguments: StoreBackend.all)
    func sameTransactionTwiceIsStoredOnceAndMerged(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        var refunded = Fixtures.transaction("1", original: "1")
        refunded.revocationDate = Fixtures.instant("2026-01-10T00:00:00Z")
        try f.ingest("alice", [refunded])
        try f.ingest("alice", [Fixtures.transaction("1", original: "1"), Fixtures.transaction("2", original: "1")])
        let stored = try f.store.accountFacts("alice").transactions
        #expect(stored.map(\.transactionId) == ["1", "2"])
        #expect(stored[0].revocationDate == refunded.revocationDate, "E1: a refund is never lost to a description without one")
        #expect(stored[0] == refunded)
    }

    @Test(arguments: StoreBackend.all)
    func sandboxAndProductionAreDistinct(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        try f.ingest("alice", [Fixtures.transaction("1", original: "1"),
                                 Fixtures.transaction("1", original: "1", environment: .sandbox)])
        #expect(try f.store.accountFacts("alice").transactions.map(\.environment) == [.production, .sandbox])
    }

    @Test(arguments: StoreBackend.all)
    func transferMovesTheSubscriptionToTheNewerAccount(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        try f.ingest("alice", [Fixtures.transaction("1", original: "1")])
        let result = try f.ingest("bob", [Fixtures.transaction("2", original: "1")])
        #expect(result.previousOwners == ["alice"])
        #expect(try f.store.accountFacts("alice").transactions.isEmpty)
        #expect(try f.transactionIds("bob") == ["1", "2"])
    }

    @Test(arguments: StoreBackend.all)
    func keepRefusesAndChangesNothing(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        try f.ingest("alice", [Fixtures.transaction("1", original: "1")])
        #expect(try f.outcome("bob", [Fixtures.transaction("9", original: "9"), Fixtures.transaction("2", original: "1")],
                              receipt: "UkVDRUlQVA==", policy: .keep) == .refused(ownedBy: "alice"))
        #expect(try f.transactionIds("alice") == ["1"])
        #expect(try f.store.accountFacts("bob").transactions.isEmpty)
        #expect(try f.store.owner(of: SubscriptionKey(environment: .production, originalTransactionId: "9")) == nil)
        #expect(try f.store.latestReceipt(for: SubscriptionKey(environment: .production, originalTransactionId: "9")) == nil)
    }

    @Test(arguments: StoreBackend.all)
    func appAccountTokenWinsOverRequesterAndPolicy(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        try f.ingest("alice", [Fixtures.transaction("1", original: "1")])
        let result = try f.ingest("bob", [Fixtures.transaction("2", original: "1", token: "token-carol")], policy: .keep)
        #expect(result.owners[SubscriptionKey(environment: .production, originalTransactionId: "1")] == "carol")
        #expect(try f.store.accountFacts("carol").transactions.count == 2)
        try f.ingest("bob", [Fixtures.transaction("3", original: "1")], policy: .transfer)
        #expect(try f.store.owner(of: SubscriptionKey(environment: .production, originalTransactionId: "1")) == "carol")
    }

    @Test(arguments: StoreBackend.all)
    func notificationsGoToTheCurrentOwnerOrStayUnbound(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        try f.ingest("alice", [Fixtures.transaction("1", original: "1")])
        try f.ingest(nil, [Fixtures.transaction("2", original: "1"), Fixtures.transaction("5", original: "5")])
        #expect(try f.transactionIds("alice") == ["1", "2"])
        #expect(try f.store.owner(of: SubscriptionKey(environment: .production, originalTransactionId: "5")) == nil)
        try f.ingest("bob", [Fixtures.transaction("6", original: "5")], policy: .keep)
        #expect(try f.transactionIds("bob") == ["5", "6"])
    }

    @Test(arguments: StoreBackend.all)
    func unknownAccountIsAnOutcomeAndWritesNothing(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        #expect(try f.outcome("zed", [Fixtures.transaction("1", original: "1")]) == .unknownAccount)
        #expect(try f.store.read { tx throws(StoreError) in try tx.transaction(Fixtures.transaction("1", original: "1").key) } == nil)
    }

    @Test(arguments: StoreBackend.all)
    func renewalInfoAndReceiptFeedThePoller(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        let renewal = RenewalInfo(environment: .production, originalTransactionId: "1", autoRenewStatus: true,
                                  isInBillingRetry: false, source: .receipt)
        var retrying = renewal
        retrying.originalTransactionId = "3"
        retrying.isInBillingRetry = true
        try f.ingest("alice", [Fixtures.transaction("1", original: "1", expires: "2026-02-01T00:00:00Z"),
                                 Fixtures.transaction("2", original: "2", expires: "2026-05-01T00:00:00Z"),
                                 Fixtures.transaction("3", original: "3", expires: "2025-01-01T00:00:00Z")],
                       renewals: [renewal, retrying], receipt: "UkVDRUlQVA==")
        #expect(try f.store.accountFacts("alice").renewals == [renewal, retrying])
        let due = try f.store.subscriptionsToPoll(expiringBefore: Fixtures.instant("2026-03-01T00:00:00Z"),
                                                notBefore: Fixtures.instant("2026-01-15T00:00:00Z"), limit: 10)
        #expect(due.map(\.subscription.originalTransactionId) == ["3", "1"])
        #expect(due.allSatisfy { $0.accountId == "alice" && $0.receiptData == "UkVDRUlQVA==" })
        #expect(due.first?.isInBillingRetry == true)
        let receipt = try f.store.latestReceipt(for: SubscriptionKey(environment: .production, originalTransactionId: "2"))
        #expect(receipt?.receiptData == "UkVDRUlQVA==")
        #expect(receipt?.accountId == "alice")
    }

    @Test(arguments: StoreBackend.all)
    func aNotificationIsProcessedOnceEvenUnderRace(_ backend: StoreBackend) async throws {
        let f = try IngestFixture(backend)
        let store = f.store
        let batch = IngestBatch(accountId: nil, transactions: [Fixtures.transaction("1", original: "1")],
                                notificationUUID: "uuid-1", at: Fixtures.t0)
        let firsts = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask { (try? store.ingest(batch, policy: .transfer).stored()).map { !$0.duplicateNotification } ?? false }
            }
            var count = 0
            for await first in group where first { count += 1 }
            return count
        }
        #expect(firsts == 1)
        var other = batch
        other.notificationUUID = "uuid-2"
        #expect(try !store.ingest(other, policy: .transfer).stored().duplicateNotification)
    }

    /// The UUID and the facts commit together: a unit of work that stores nothing records neither,
    /// so the same notification is taken when it comes again (Apple retries after a 503).
    @Test(arguments: StoreBackend.all)
    func aNotificationWhoseFactsFailedIsNotMarked(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        // An appAccountToken-less transaction for an account that does not exist stores nothing.
        let failing = IngestBatch(accountId: "nobody", transactions: [Fixtures.transaction("7", original: "7")],
                                  notificationUUID: "uuid-7", at: Fixtures.t0)
        #expect(try f.store.ingest(failing, policy: .transfer) == .unknownAccount)
        let retried = IngestBatch(accountId: "alice", transactions: [Fixtures.transaction("7", original: "7")],
                                  notificationUUID: "uuid-7", at: Fixtures.t0)
        #expect(try !f.store.ingest(retried, policy: .transfer).stored().duplicateNotification)
        #expect(try f.transactionIds("alice") == ["7"])
        #expect(try f.store.ingest(retried, policy: .transfer).stored().duplicateNotification)
    }
}
