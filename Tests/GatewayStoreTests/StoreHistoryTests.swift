import Testing
import IssueCatalog
import Entitle
import GatewayStore
import Wire

/// Account history written by the rules above the store (`FactIngestor`, grants, codes) in the
/// unit of work of the fact itself, on every backend.
@Suite struct StoreHistoryTests {
    func events(_ f: IngestFixture, _ account: String) throws -> [HistoryEvent] {
        try #require(try f.store.history(ofAccount: account, after: nil, limit: 1000)).events
    }

    func kinds(_ f: IngestFixture, _ account: String) throws -> [HistoryKind] { try events(f, account).map(\.kind) }

    @Test(arguments: StoreBackend.all)
    func aReceiptRecordsTheBindingItsTransactionsAndRenewalInfoOnceEvenWhenSentAgain(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        let renewal = RenewalInfo(environment: .production, originalTransactionId: "1", autoRenewStatus: true, source: .receipt)
        let batch = [Fixtures.transaction("2", original: "1", purchased: "2026-02-01T00:00:00Z", expires: "2026-03-01T00:00:00Z"),
                     Fixtures.transaction("1", original: "1")]
        try f.ingest("alice", batch, renewals: [renewal])
        let first = try events(f, "alice")
        #expect(first.map(\.kind) == [.ownershipBound, .transactionSeen, .transactionSeen, .renewalInfoChanged])
        #expect(first.map { $0.details["transactionId"]?.stringValue } == [nil, "1", "2", nil], "oldest purchase first")
        #expect(first.allSatisfy { $0.source == .receipt && $0.at == Fixtures.t0 && $0.accountId == "alice" })
        #expect(first[1].details["expiresDate"] == .string("2026-02-01T00:00:00.000Z"))
        #expect(first.map(\.sequence) == first.map(\.sequence).sorted() && Set(first.map(\.sequence)).count == 4)
        // E1: the same facts again change nothing, so nothing is recorded.
        try f.ingest("alice", batch, renewals: [renewal])
        #expect(try events(f, "alice") == first)
    }

    @Test(arguments: StoreBackend.all)
    func refundsReversalsExpiryMovesAndRenewalChangesSayWhatChanged(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        var t = Fixtures.transaction("1", original: "1")
        try f.ingest("alice", [t])
        t.observedAt = Fixtures.instant("2026-01-05T00:00:00Z")
        t.revocationDate = Fixtures.instant("2026-01-04T00:00:00Z")
        t.revocationReason = 1
        try f.ingest(nil, [t])
        t.observedAt = Fixtures.instant("2026-01-06T00:00:00Z")
        t.revocationDate = nil
        t.revocationReason = nil
        try f.ingest(nil, [t])
        t.observedAt = Fixtures.instant("2026-01-07T00:00:00Z")
        t.expiresDate = Fixtures.instant("2026-02-08T00:00:00Z")
        try f.ingest(nil, [t])
        try f.ingest(nil, [], renewals: [RenewalInfo(environment: .production, originalTransactionId: "1", autoRenewStatus: false,
                                                     expirationIntent: .voluntary, source: .notificationV1)])
        let all = try events(f, "alice")
        #expect(all.map(\.kind) == [.ownershipBound, .transactionSeen, .refund, .refundReversed, .transactionChanged,
                                    .renewalInfoChanged])
        #expect(all[2].details["revocationDate"] == .string("2026-01-04T00:00:00.000Z"))
        #expect(all[2].details["revocationReason"] == .integer(1))
        #expect(all[3].details["previousRevocationDate"] == .string("2026-01-04T00:00:00.000Z"))
        #expect(all[4].details["changes"] == .array([.string("expiryMoved")]))
        #expect(all[4].details["previousExpiresDate"] == .string("2026-02-01T00:00:00.000Z"))
        #expect(all[5].details["autoRenewStatus"] == .bool(false) && all[5].details["expirationIntent"] == .integer(1))
        #expect(all[5].source == .notificationV1)
    }

    @Test(arguments: StoreBackend.all)
    func aTransferIsInBothHistoriesWithTheOtherAccountAndARefusalInNeither(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        let t = Fixtures.transaction("1", original: "1")
        try f.ingest("alice", [t])
        #expect(try f.outcome("bob", [t], policy: .keep) == .refused(ownedBy: "alice"))
        #expect(try kinds(f, "bob").isEmpty)
        #expect(try kinds(f, "alice") == [.ownershipBound, .transactionSeen])
        try f.ingest("bob", [t], policy: .transfer)
        let bob = try events(f, "bob"), alice = try events(f, "alice")
        #expect(bob.map(\.kind) == [.ownershipBound])
        #expect(bob[0].details["fromAccountId"] == .string("alice"))
        #expect(alice.map(\.kind) == [.ownershipBound, .transactionSeen, .ownershipTransferredAway])
        #expect(alice[2].details["toAccountId"] == .string("bob"))
        #expect(alice[2].details["originalTransactionId"] == .string("1"))
    }

    @Test(arguments: StoreBackend.all)
    func factsOfASubscriptionNobodyOwnsAreInNoHistory(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        try f.ingest(nil, [Fixtures.transaction("1", original: "1")])
        for account in ["alice", "bob", "carol"] { #expect(try kinds(f, account).isEmpty) }
    }

    @Test(arguments: StoreBackend.all)
    func eventsAppendedTogetherTakeTheirSequencesInTheOrderGiven(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        // More than one statement holds, for two accounts interleaved.
        let appended = (0..<150).map { i in
            HistoryEvent(accountId: i % 3 == 0 ? "bob" : "alice", at: Fixtures.t0.adding(seconds: Int64(i)),
                         kind: .operatorAction, source: .admin, details: JSONObject())
        }
        try f.store.write { tx throws(StoreError) in try tx.append(contentsOf: appended) }
        try f.store.write { tx throws(StoreError) in try tx.append(contentsOf: []) }
        for account in ["alice", "bob"] {
            let stored = try events(f, account)
            #expect(stored.map(\.at) == appended.filter { $0.accountId == account }.map(\.at))
            #expect(zip(stored, stored.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
        }
    }

    @Test(arguments: StoreBackend.all)
    func aWriteThatRollsBackLeavesNoEvent(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        #expect(throws: StoreError.self) {
            try f.store.write { tx throws(StoreError) in
                try tx.append(HistoryEvent(accountId: "alice", at: Fixtures.t0, kind: .operatorAction, source: .admin,
                                           details: JSONObject()))
                throw .busy
            }
        }
        #expect(try kinds(f, "alice").isEmpty)
    }

    @Test(arguments: StoreBackend.all)
    func grantsCodesAndOperatorActionsAreRecordedOncePerChange(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        let grant = Grant(grantId: "g1", accountId: "alice", source: "print", externalId: "p-1", publications: ["monthly"],
                          start: Fixtures.t0, end: nil, note: "<b>staff</b>", createdAt: Fixtures.t0)
        _ = try f.store.give(grant)
        _ = try f.store.give(grant)  // unchanged: no event
        let later = Fixtures.instant("2026-01-02T00:00:00Z")
        _ = try f.store.revokeGrant("g1", ofAccount: "alice", at: later)
        _ = try f.store.revokeGrant("g1", ofAccount: "alice", at: later)  // already revoked: no event
        try f.store.recordOperatorAction("renewalExtended", on: "alice", at: later)
        let all = try events(f, "alice")
        #expect(all.map(\.kind) == [.grantGiven, .grantRevoked, .operatorAction])
        #expect(all.map(\.source) == [.grant, .grant, .admin])
        #expect(all[0].details["grantId"] == .string("g1") && all[0].details["note"] == .string("<b>staff</b>"))
        #expect(all[0].details["end"] == .null)
        #expect(all[1].details["revokedAt"] == .string("2026-01-02T00:00:00.000Z") && all[1].at == later)
        #expect(all[2].details["action"] == .string("renewalExtended"))
        #expect(try !f.store.recordOperatorAction("x", on: "nobody", at: later))

        let batch = CodeBatch(batchId: "b1", publicationId: "monthly", issueId: nil, duration: "P1M", expiresAt: nil,
                              createdAt: Fixtures.t0)
        try f.store.createCodeBatch(batch, codeHashes: ["h1"])
        #expect(try f.store.redeem(codeHash: "h1", for: "bob", grantId: "g2", at: later) != .notFound)
        #expect(try f.store.redeem(codeHash: "h1", for: "carol", grantId: "g3", at: later) == .notFound)
        let bob = try events(f, "bob")
        #expect(bob.map(\.kind) == [.codeRedeemed] && bob[0].source == .code)
        #expect(bob[0].details["batchId"] == .string("b1") && bob[0].details["end"] == .string("2026-02-02T00:00:00.000Z"))
        #expect(try kinds(f, "carol").isEmpty)
    }

    @Test(arguments: StoreBackend.all)
    func pagesContinueAfterTheirCursorAndAnUnknownAccountHasNone(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        for i in 0..<5 { try f.store.recordOperatorAction("a\(i)", on: "alice", at: Fixtures.t0) }
        try f.store.recordOperatorAction("b", on: "bob", at: Fixtures.t0)
        let first = try #require(try f.store.history(ofAccount: "alice", after: nil, limit: 2))
        #expect(first.events.map { $0.details["action"] } == [.string("a0"), .string("a1")])
        let second = try #require(try f.store.history(ofAccount: "alice", after: first.next, limit: 2))
        let third = try #require(try f.store.history(ofAccount: "alice", after: second.next, limit: 2))
        #expect(second.events.map { $0.details["action"] } == [.string("a2"), .string("a3")])
        #expect(third.events.map { $0.details["action"] } == [.string("a4")] && third.next == nil)
        let exact = try #require(try f.store.history(ofAccount: "alice", after: nil, limit: 5))
        #expect(exact.events.count == 5 && exact.next == nil)
        #expect(try f.store.history(ofAccount: "nobody", after: nil, limit: 5) == nil)
    }
}
