import Entitle
import GatewayStore
import Testing
import Wire

/// readers.md E35, on every backend: a deletion erases what identifies the reader in one unit of
/// work and keeps the store transactions as a ledger owned by nobody; the account is found by
/// nothing afterwards; a later post of the same purchase by another account takes it, whatever
/// the E4 policy.
@Suite struct StoreAccountDeletionTests {
    static let deletedAt = Fixtures.instant("2026-01-15T00:00:00Z")
    static let key = SubscriptionKey(environment: .production, originalTransactionId: "1")

    /// alice with a subscription (auto-renewing), a device, a grant with a note, a print-style
    /// grant, an institution's grant given from an address, and history carrying both.
    func fixture(_ backend: StoreBackend) throws -> IngestFixture {
        let f = try IngestFixture(backend)
        try f.store.createAccount(Fixtures.account("dora", appAccountToken: "token-dora"))
        try f.ingest("dora", [Fixtures.transaction("1", original: "1", token: "token-dora")],
                     renewals: [RenewalInfo(environment: .production, originalTransactionId: "1", autoRenewStatus: true,
                                            source: .receipt)])
        _ = try f.store.registerDevice(Device(accountId: "dora", apnsToken: String(repeating: "ab", count: 32),
                                              environment: .production, registeredAt: Fixtures.t0), limit: 20)
        _ = try f.store.give(Grant(grantId: "g1", accountId: "dora", source: "crm", externalId: "x1", publications: ["monthly"],
                                   start: Fixtures.t0, end: nil, note: "called support on Tuesday", createdAt: Fixtures.t0))
        _ = try f.store.give(Grant(grantId: "g2", accountId: "dora", source: "print", externalId: "monthly:C-1",
                                   publications: ["monthly"], start: Fixtures.t0, end: nil, createdAt: Fixtures.t0))
        let library = Institution(institutionId: "inst-1", name: "Library", publications: ["monthly"], networks: ["192.0.2.0/24"],
                                  start: Fixtures.t0, end: nil, createdAt: Fixtures.t0)
        #expect(try f.store.saveInstitution(library, at: Fixtures.t0))
        #expect(try f.store.recordInstitutionAccount(InstitutionAccount(accountId: "dora", institutionId: "inst-1",
                                                                        firstSeen: Fixtures.t0, address: "192.0.2.77")))
        return f
    }

    @Test(arguments: StoreBackend.all)
    func e35DeletionErasesTheReaderAndKeepsTheLedgerUnowned(_ backend: StoreBackend) throws {
        let f = try fixture(backend)
        let before = try #require(try f.store.accountRecords("dora"))
        #expect(before.devices.count == 1 && before.grants.count == 2 && before.institutions.count == 1)
        #expect(before.history.contains { $0.details["note"] != nil } && before.history.contains { $0.details["address"] != nil })

        let deleted = try #require(try f.store.deleteAccount("dora", at: Self.deletedAt, events: EventPolicy(webhooks: true, pushes: false)))
        #expect(deleted.transactions.map(\.transactionId) == ["1"])
        #expect(deleted.renewalInfos.map(\.autoRenewStatus) == [true])

        #expect(try f.store.account(id: "dora") == nil, "found by nothing")
        #expect(try f.store.account(tokenHash: "hash-dora") == nil, "its secret resolves no more")
        #expect(try f.store.account(appAccountToken: "token-dora") == nil, "its appAccountToken is freed")
        #expect(try f.store.accountRecords("dora") == nil)
        #expect(try f.store.history(ofAccount: "dora", after: nil, limit: 10) == nil)
        #expect(try f.store.devices(ofAccount: "dora").isEmpty, "push devices erased")
        #expect(try f.store.deleteAccount("dora", at: Self.deletedAt) == nil, "deleting again finds nothing")
        #expect(try f.store.lookup(originalTransactionId: "1", environment: .production) == nil, "owned by nobody")
        #expect(try f.store.transactions(ofSubscription: Self.key).map(\.transactionId) == ["1"], "the ledger is kept")

        // The account's rows that stay hold no free text, no address, and end at the deletion.
        let rows = try f.store.read { tx throws(StoreError) in
            (try tx.grants(ofAccount: "dora"), try tx.history(ofAccount: "dora", after: nil, limit: 100),
             try tx.institutionAccounts(ofAccount: "dora"))
        }
        #expect(rows.0.allSatisfy { $0.revokedAt == Self.deletedAt && $0.note == nil }, "grants and claims end now")
        #expect(!rows.1.isEmpty && rows.1.allSatisfy { $0.details["note"] == nil && $0.details["address"] == nil })
        #expect(rows.2.isEmpty)

        let events = try f.store.outboxEvents(limit: 10).filter { $0.kind == .accountDeleted }
        #expect(events.map(\.eventId) == ["account.deleted/dora"])
        #expect(events.first?.body.contains(#""data":{"accountId":"dora"}"#) == true)
        #expect(events.first?.body.contains(#""type":"account.deleted""#) == true)
    }

    @Test(arguments: StoreBackend.all)
    func e35ALaterPostByAnotherAccountTakesThePurchaseEvenUnderKeep(_ backend: StoreBackend) throws {
        let f = try fixture(backend)
        _ = try f.store.deleteAccount("dora", at: Self.deletedAt)
        let result = try f.ingest("alice", [Fixtures.transaction("1", original: "1")], policy: .keep)
        #expect(result.owners[Self.key] == "alice")
        #expect(try f.transactionIds("alice") == ["1"])
        // A purchase naming the deleted account's freed appAccountToken binds nobody to it.
        try f.store.createAccount(Fixtures.account("erin", appAccountToken: "token-dora"))
        #expect(try f.store.account(appAccountToken: "token-dora")?.id == "erin", "the token is free for another account")
    }

    @Test(arguments: StoreBackend.all)
    func e35ThePrintClaimIsReleasedForAnotherAccount(_ backend: StoreBackend) throws {
        let f = try fixture(backend)
        _ = try f.store.deleteAccount("dora", at: Self.deletedAt)
        let grant = try #require(try f.store.read { tx throws(StoreError) in try tx.grant(source: "print", externalId: "monthly:C-1") })
        #expect(grant.revokedAt == Self.deletedAt, "no account holds the subscriber any more")
    }
}
