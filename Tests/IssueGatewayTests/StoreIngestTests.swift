import Testing
import IssueCatalog
import Entitle
@testable import IssueGateway

@Suite struct StoreIngestTests {
    let db = TemporaryDatabase()
    let store: SQLiteStore

    init() throws {
        store = try db.open()
        for id in ["alice", "bob"] { try store.createAccount(Fixtures.account(id)) }
        try store.createAccount(Fixtures.account("carol", appAccountToken: "token-carol"))
    }

    func ingest(_ account: String?, _ transactions: [Transaction], renewals: [RenewalInfo] = [],
                receipt: String? = nil, policy: OwnershipPolicy = .transfer) throws -> IngestResult {
        try store.ingest(IngestBatch(accountId: account, transactions: transactions, renewalInfos: renewals,
                                     receiptData: receipt, at: Fixtures.t0), policy: policy, merge: Fixtures.merge)
    }

    @Test func sameTransactionTwiceIsStoredOnceAndMerged() throws {
        var refunded = Fixtures.transaction("1", original: "1")
        refunded.revocationDate = Fixtures.instant("2026-01-10T00:00:00Z")
        _ = try ingest("alice", [refunded])
        _ = try ingest("alice", [Fixtures.transaction("1", original: "1"), Fixtures.transaction("2", original: "1")])
        let stored = try store.transactions(ofAccount: "alice")
        #expect(stored.map(\.transactionId) == ["1", "2"])
        #expect(stored[0].revocationDate == refunded.revocationDate, "the merge function decided")
        #expect(stored[0] == refunded)
    }

    @Test func sandboxAndProductionAreDistinct() throws {
        _ = try ingest("alice", [Fixtures.transaction("1", original: "1"),
                                 Fixtures.transaction("1", original: "1", environment: .sandbox)])
        #expect(try store.transactions(ofAccount: "alice").map(\.environment) == [.production, .sandbox])
    }

    @Test func transferMovesTheSubscriptionToTheNewerAccount() throws {
        _ = try ingest("alice", [Fixtures.transaction("1", original: "1")])
        let result = try ingest("bob", [Fixtures.transaction("2", original: "1")])
        #expect(result.previousOwners == ["alice"])
        #expect(try store.transactions(ofAccount: "alice").isEmpty)
        #expect(try store.transactions(ofAccount: "bob").map(\.transactionId) == ["1", "2"])
    }

    @Test func keepRefusesAndChangesNothing() throws {
        _ = try ingest("alice", [Fixtures.transaction("1", original: "1")])
        #expect(throws: StoreError.ownedByOtherAccount(accountId: "alice")) {
            try ingest("bob", [Fixtures.transaction("9", original: "9"), Fixtures.transaction("2", original: "1")],
                       receipt: "UkVDRUlQVA==", policy: .keep)
        }
        #expect(try store.transactions(ofAccount: "alice").map(\.transactionId) == ["1"])
        #expect(try store.transactions(ofAccount: "bob").isEmpty)
        #expect(try store.owner(of: SubscriptionKey(environment: .production, originalTransactionId: "9")) == nil)
        #expect(try store.latestReceipt(for: SubscriptionKey(environment: .production, originalTransactionId: "9")) == nil)
    }

    @Test func appAccountTokenWinsOverRequesterAndPolicy() throws {
        _ = try ingest("alice", [Fixtures.transaction("1", original: "1")])
        let result = try ingest("bob", [Fixtures.transaction("2", original: "1", token: "token-carol")], policy: .keep)
        #expect(result.owners[SubscriptionKey(environment: .production, originalTransactionId: "1")] == "carol")
        #expect(try store.transactions(ofAccount: "carol").count == 2)
        _ = try ingest("bob", [Fixtures.transaction("3", original: "1")], policy: .transfer)
        #expect(try store.owner(of: SubscriptionKey(environment: .production, originalTransactionId: "1")) == "carol")
    }

    @Test func notificationsGoToTheCurrentOwnerOrStayUnbound() throws {
        _ = try ingest("alice", [Fixtures.transaction("1", original: "1")])
        _ = try ingest(nil, [Fixtures.transaction("2", original: "1"), Fixtures.transaction("5", original: "5")])
        #expect(try store.transactions(ofAccount: "alice").map(\.transactionId) == ["1", "2"])
        #expect(try store.owner(of: SubscriptionKey(environment: .production, originalTransactionId: "5")) == nil)
        _ = try ingest("bob", [Fixtures.transaction("6", original: "5")], policy: .keep)
        #expect(try store.transactions(ofAccount: "bob").map(\.transactionId) == ["5", "6"])
    }

    @Test func unknownAccountIsNotFound() throws {
        #expect(throws: StoreError.notFound("account zed")) { try ingest("zed", [Fixtures.transaction("1", original: "1")]) }
    }

    @Test func renewalInfoAndReceiptFeedThePoller() throws {
        let renewal = RenewalInfo(environment: .production, originalTransactionId: "1", autoRenewStatus: true,
                                  isInBillingRetry: false, source: .verifyReceipt)
        var retrying = renewal
        retrying.originalTransactionId = "3"
        retrying.isInBillingRetry = true
        _ = try ingest("alice", [Fixtures.transaction("1", original: "1", expires: "2026-02-01T00:00:00Z"),
                                 Fixtures.transaction("2", original: "2", expires: "2026-05-01T00:00:00Z"),
                                 Fixtures.transaction("3", original: "3", expires: "2025-01-01T00:00:00Z")],
                       renewals: [renewal, retrying], receipt: "UkVDRUlQVA==")
        #expect(try store.renewalInfos(ofAccount: "alice") == [renewal, retrying])
        let due = try store.subscriptionsToPoll(expiringBefore: Fixtures.instant("2026-03-01T00:00:00Z"),
                                                notBefore: Fixtures.instant("2026-01-15T00:00:00Z"), limit: 10)
        #expect(due.map(\.subscription.originalTransactionId) == ["3", "1"])
        #expect(due.allSatisfy { $0.accountId == "alice" && $0.receiptData == "UkVDRUlQVA==" })
        #expect(due.first?.isInBillingRetry == true)
        let receipt = try store.latestReceipt(for: SubscriptionKey(environment: .production, originalTransactionId: "2"))
        #expect(receipt?.receiptData == "UkVDRUlQVA==")
        #expect(receipt?.accountId == "alice")
    }

    @Test func aNotificationIsProcessedOnceEvenUnderRace() async throws {
        let store = self.store
        let winners = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 { group.addTask { (try? store.markNotificationProcessed("uuid-1", at: Fixtures.t0)) ?? false } }
            var count = 0
            for await won in group where won { count += 1 }
            return count
        }
        #expect(winners == 1)
        #expect(try store.markNotificationProcessed("uuid-2", at: Fixtures.t0))
    }
}
