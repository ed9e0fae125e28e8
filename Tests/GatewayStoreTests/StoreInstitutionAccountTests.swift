import Testing
import GatewayStore
import Wire

/// E30: "History sources `print` and `institution` record what each gave": the accounts an
/// institution's grant was given to, once per pair with its `grantGiven` event, and the events a
/// change or deletion of the institution writes on them, on every backend.
@Suite struct StoreInstitutionAccountTests {
    static let created = Fixtures.instant("2026-03-01T00:00:00Z")
    static let seen = Fixtures.instant("2026-03-02T10:00:00Z")
    static let library = Institution(institutionId: "inst-1", name: "Library", publications: ["monthly", "weekly"],
                                     networks: ["192.0.2.0/24"], start: Fixtures.instant("2026-01-15T00:00:00Z"), end: nil,
                                     createdAt: created)
    static let school = Institution(institutionId: "inst-2", name: "School", publications: ["monthly"],
                                    networks: ["198.51.100.0/24"], start: created,
                                    end: Fixtures.instant("2026-07-01T00:00:00Z"), createdAt: created)

    func fixture(_ backend: StoreBackend) throws -> IngestFixture {
        let f = try IngestFixture(backend)
        for institution in [Self.library, Self.school] {
            #expect(try f.store.saveInstitution(institution, at: Self.created))
        }
        return f
    }

    func record(_ f: IngestFixture, _ accountId: String, _ institution: Institution, at instant: Instant = seen,
                from address: String = "192.0.2.77") throws -> Bool {
        try f.store.recordInstitutionAccount(InstitutionAccount(accountId: accountId, institutionId: institution.institutionId,
                                                                firstSeen: instant, address: address))
    }

    func events(_ f: IngestFixture, _ accountId: String) throws -> [HistoryEvent] {
        try #require(try f.store.history(ofAccount: accountId, after: nil, limit: 100)).events
    }

    @Test(arguments: StoreBackend.all)
    func e30AnInstitutionsGrantIsRecordedOncePerAccountWithItsTerms(_ backend: StoreBackend) throws {
        let f = try fixture(backend)
        #expect(try f.store.institutionAccount(accountId: "alice", institutionId: "inst-1") == nil)
        #expect(try record(f, "alice", Self.library))
        #expect(!(try record(f, "alice", Self.library, at: Fixtures.instant("2026-03-03T00:00:00Z"), from: "192.0.2.8")),
                "a second time writes nothing")
        #expect(try f.store.institutionAccount(accountId: "alice", institutionId: "inst-1")
                == InstitutionAccount(accountId: "alice", institutionId: "inst-1", firstSeen: Self.seen, address: "192.0.2.77"),
                "the first address and instant stay")

        let given = try events(f, "alice")
        #expect(given.count == 1)
        let event = try #require(given.first)
        #expect(event.kind == .grantGiven && event.source == .institution && event.at == Self.seen)
        #expect(event.details["grantId"]?.stringValue == "institution:inst-1")
        #expect(event.details["institutionId"]?.stringValue == "inst-1")
        #expect(event.details["institutionName"]?.stringValue == "Library")
        #expect(event.details["publications"] == .array([.string("monthly"), .string("weekly")]))
        #expect(event.details["start"]?.stringValue == "2026-01-15T00:00:00.000Z")
        #expect(event.details["end"] == .null, "open-ended")
        #expect(event.details["address"]?.stringValue == "192.0.2.77")

        #expect(try record(f, "alice", Self.school, from: "198.51.100.4"), "another institution is another pair")
        #expect(try events(f, "alice").map { $0.details["institutionId"]?.stringValue } == ["inst-1", "inst-2"])
        #expect(try events(f, "bob").isEmpty)
    }

    @Test(arguments: StoreBackend.all)
    func e30ChangingWhatAnInstitutionGivesWritesGrantChangedOnItsAccounts(_ backend: StoreBackend) throws {
        let f = try fixture(backend)
        #expect(try record(f, "alice", Self.library))
        #expect(try record(f, "bob", Self.library, from: "192.0.2.9"))
        #expect(try record(f, "carol", Self.school, from: "198.51.100.4"))

        var renamed = Self.library
        renamed.name = "City Library"
        renamed.networks = ["192.0.2.0/25"]
        let changedAt = Fixtures.instant("2026-04-01T00:00:00Z")
        #expect(try f.store.saveInstitution(renamed, at: changedAt))
        #expect(try events(f, "alice").count == 1, "a new name or networks change nothing it gives")

        var shorter = renamed
        shorter.end = Fixtures.instant("2026-06-01T00:00:00Z")
        shorter.publications = ["monthly"]
        #expect(try f.store.saveInstitution(shorter, at: changedAt))
        for account in ["alice", "bob"] {
            let changed = try #require(try events(f, account).last)
            #expect(changed.kind == .grantChanged && changed.source == .institution && changed.at == changedAt)
            #expect(changed.details["changes"] == .array([.string("publications"), .string("end")]))
            #expect(changed.details["end"]?.stringValue == "2026-06-01T00:00:00.000Z")
            #expect(changed.details["previousEnd"] == .null)
            #expect(changed.details["previousPublications"] == .array([.string("monthly"), .string("weekly")]))
            #expect(changed.details["institutionName"]?.stringValue == "City Library")
        }
        #expect(try events(f, "carol").count == 1, "another institution's account")

    }

    @Test(arguments: StoreBackend.all)
    func e30DeletingAnInstitutionWritesGrantRevokedOnItsAccountsAndForgetsThem(_ backend: StoreBackend) throws {
        let f = try fixture(backend)
        #expect(try record(f, "alice", Self.library))
        #expect(try record(f, "carol", Self.school, from: "198.51.100.4"))
        let deletedAt = Fixtures.instant("2026-05-01T00:00:00Z")
        #expect(try f.store.deleteInstitution(id: "inst-1", at: deletedAt))
        let revoked = try #require(try events(f, "alice").last)
        #expect(revoked.kind == .grantRevoked && revoked.source == .institution && revoked.at == deletedAt)
        #expect(revoked.details["grantId"]?.stringValue == "institution:inst-1")
        #expect(revoked.details["revokedAt"]?.stringValue == "2026-05-01T00:00:00.000Z")
        #expect(try f.store.institutionAccount(accountId: "alice", institutionId: "inst-1") == nil)
        #expect(try f.store.institutionAccount(accountId: "carol", institutionId: "inst-2") != nil)
        #expect(try events(f, "carol").count == 1)
        #expect(!(try f.store.deleteInstitution(id: "inst-1", at: deletedAt)))
        #expect(try events(f, "alice").count == 2, "deleting nothing writes nothing")
        #expect(!(try record(f, "bob", Self.library)), "a request that saw it before it was deleted records nothing")
        #expect(try events(f, "bob").isEmpty && f.store.institutionAccount(accountId: "bob", institutionId: "inst-1") == nil)
        // A replacement read before the delete and written after it: refused, nothing brought back.
        #expect(!(try f.store.saveInstitution(Self.library, at: deletedAt, replacing: true)))
        #expect(try f.store.institution(id: "inst-1") == nil)
    }
}
