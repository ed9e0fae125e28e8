import Entitle
import Foundation
import GatewayStore
import IssueCatalog
import PostgresStore
import SQLiteStore
import Testing
import TestSupport
import Wire

/// `issue-gateway store copy --to postgresql://…` (moving up): what a SQLite database
/// holds reads back the same from PostgreSQL, verified per table; a destination with data is refused.
@Suite(.tags(.postgres), .postgresCluster)
struct StoreCopyTests {
    static let t0 = Instant(rfc3339: "2026-01-01T00:00:00Z")!

    /// A SQLite store with something in every table.
    private func fill(_ store: SQLiteStore) throws {
        try store.createAccount(Account(id: "alice", tokenHash: "hash-alice", appAccountToken: "token-a", createdAt: Self.t0))
        try store.createAccount(Account(id: "bob", tokenHash: "hash-bob", createdAt: Self.t0))
        try store.createAPIKey(APIKey(keyId: "editor", role: .editor, publications: ["monthly"], secretHash: "hash-key",
                                      createdAt: Self.t0))
        let purchase = Transaction(environment: .production, transactionId: "1", originalTransactionId: "1",
                                   productId: "monthly.ios.monthly", purchaseDate: Self.t0,
                                   expiresDate: Self.t0.adding(seconds: 30 * 86_400), isUpgraded: true, source: .receipt)
        let renewal = RenewalInfo(environment: .production, originalTransactionId: "1", productId: "monthly.ios.monthly",
                                  autoRenewStatus: true, isInBillingRetry: false, source: .receipt)
        var batch = IngestBatch(accountId: "alice", transactions: [purchase], renewalInfos: [renewal],
                                receiptData: "UkVDRUlQVA==", notificationUUID: "uuid-1", at: Self.t0)
        batch.historyFetched = [purchase.subscriptionKey]
        _ = try store.ingest(batch, policy: .transfer, events: Self.events)
        _ = try store.give(Grant(grantId: "g1", accountId: "bob", source: "print", externalId: "sub-1",
                                 publications: ["monthly"], start: Self.t0, end: nil, createdAt: Self.t0))
        try store.createCodeBatch(CodeBatch(batchId: "b1", publicationId: "monthly", issueId: nil, duration: "P1M",
                                            expiresAt: nil, createdAt: Self.t0), codeHashes: ["c1", "c2"])
        _ = try store.redeem(codeHash: "c1", for: "bob", grantId: "g2", at: Self.t0)
        try store.recordOperatorAction("extendRenewalDate", on: "alice", at: Self.t0)
        try store.setServiceMark("backfill", at: Self.t0)
        _ = try store.registerDevice(Device(accountId: "bob", apnsToken: "aa11", environment: .sandbox, registeredAt: Self.t0),
                                     limit: 5)
        // Every sample issue published by then: announced, with its webhook event and push job.
        #expect(try !store.announceDueIssues(now: Self.later, policy: Self.events, limit: 100).isEmpty)
    }

    static let events = EventPolicy(webhooks: true, pushes: true)
    static let later = Instant(rfc3339: "2100-01-01T00:00:00Z")!

    @Test func aCopyReadsBackTheSameAndASecondIsRefused() throws {
        let schema = try TemporaryPostgresSchema()
        let cli = CLIHarness()
        #expect(cli.run("catalog", "import", CLIHarness.sampleCatalog) == 0)
        let sqlite = try SQLiteStore(path: cli.database.path)
        try fill(sqlite)

        #expect(cli.run("store", "copy", "--to", schema.url) == 0, "\(cli.err)")
        #expect(cli.out.contains("accounts: 2 rows"))
        #expect(cli.out.contains("(verified)"))
        let copy = try PostgresStore(url: schema.url)
        #expect(try copy.storedCatalog() == sqlite.storedCatalog())
        for account in ["alice", "bob"] {
            #expect(try copy.accountFacts(account) == sqlite.accountFacts(account))
            #expect(try copy.account(id: account) == sqlite.account(id: account))
        }
        #expect(try copy.apiKeys() == sqlite.apiKeys())
        #expect(try copy.codeBatch("b1", of: "monthly")! == sqlite.codeBatch("b1", of: "monthly")!)
        let key = SubscriptionKey(environment: .production, originalTransactionId: "1")
        #expect(try copy.latestReceipt(for: key) == sqlite.latestReceipt(for: key))
        #expect(try copy.historiesNotFetched([key]).isEmpty)
        #expect(try copy.serviceMark("backfill") == Self.t0)
        #expect(try copy.devices(ofAccount: "bob") == sqlite.devices(ofAccount: "bob"))
        #expect(try copy.openPushJobs() == sqlite.openPushJobs())
        #expect(try copy.outboxEvents(limit: 100) == sqlite.outboxEvents(limit: 100))
        let history = try #require(try copy.history(ofAccount: "alice", after: nil, limit: 100))
        #expect(history == (try sqlite.history(ofAccount: "alice", after: nil, limit: 100)))
        #expect(try copy.nextUnannouncedPublication(after: Self.later) == nil)
        // The copied sequences go on past the copied rows.
        try copy.recordOperatorAction("refund", on: "alice", at: Self.t0)
        let last = try #require(try copy.history(ofAccount: "alice", after: history.events.last?.sequence, limit: 10))
        #expect(last.events.map(\.kind) == [.operatorAction])
        let again = IngestBatch(accountId: nil, transactions: [], notificationUUID: "uuid-1", at: Self.t0)
        #expect(try copy.ingest(again, policy: .transfer)
                == .stored(IngestResult(owners: [:], previousOwners: [], duplicateNotification: true)))

        #expect(cli.run("store", "copy", "--to", schema.url) == 1)
        #expect(cli.err.contains("not empty"))
        #expect(try copy.accountFacts("alice") == sqlite.accountFacts("alice"))
    }

    @Test func theSourceMustBeSQLiteAndTheDestinationPostgreSQL() {
        let cli = CLIHarness()
        #expect(cli.run("store", "copy", "--to", "mysql://x") == 2)
        #expect(cli.run("store", "copy", "--to", "postgresql://127.0.0.1:1/x",
                        environment: ["ISSUE_GATEWAY_DATABASE_URL": "postgresql://127.0.0.1:1/y"]) == 2)
    }
}
