import Testing
import Entitle
import GatewayStore
import Wire

/// E29's lists and claims and E30's institutions, stored and read back on every backend.
@Suite struct StorePrintSubscriberTests {
    static let listTime = Fixtures.instant("2026-03-01T00:00:00Z")

    func list(_ id: String, _ kind: SubscriberListKind = .whole, at instant: Instant = listTime) -> SubscriberImport {
        SubscriberImport(listId: id, publicationId: "monthly", kind: kind, receivedAt: instant)
    }

    func row(_ number: String, hash: String = "h", end: String? = nil, line: Int = 2) -> ListedSubscriber {
        ListedSubscriber(customerNumber: number, verificationHash: hash,
                         terms: PrintSubscriberTerms(start: Fixtures.instant("2026-01-01T00:00:00Z"), end: end.map(Fixtures.instant)),
                         line: line)
    }

    @Test(arguments: StoreBackend.all)
    func e29ListsClaimsAndAWholeListsEnd(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        let first = list("list-1")
        try f.store.record(first)
        let step = try #require(try f.store.apply([row("C-1"), row("C-2"), row("C-1", line: 4)], of: first))
        #expect(step.counts.added == 2 && step.counts.rejected.map(\.line) == [4])
        let claim = try f.store.claimSubscriber(publicationId: "monthly", customerNumber: "C-1", for: "alice", policy: .keep,
                                                grantId: "g-1", at: Self.listTime) { $0 == "h" }
        guard case .claimed(let grant, nil) = claim else { Issue.record("\(claim)"); return }
        #expect(grant.externalId == "monthly:C-1" && grant.source == "print")
        #expect(try f.store.claimSubscriber(publicationId: "monthly", customerNumber: "C-1", for: "bob", policy: .keep,
                                            grantId: "g-2", at: Self.listTime) { $0 == "h" } == .ownedByOtherAccount)
        #expect(try f.store.claimSubscriber(publicationId: "monthly", customerNumber: "C-2", for: "bob", policy: .keep,
                                            grantId: "g-3", at: Self.listTime) { $0 == "wrong" } == .notFound)
        // A later whole list without C-1 ends it, and its grant follows.
        let later = Fixtures.instant("2026-04-01T00:00:00Z")
        let second = list("list-2", at: later)
        #expect(try f.store.apply([row("C-2")], of: second)?.counts.unchanged == 1)
        let ending = try #require(try f.store.endMissing(from: second, limit: 10))
        #expect(ending.counts.ended == 1 && ending.touchedAccounts == ["alice"])
        #expect(try f.store.endMissing(from: second, limit: 10)?.counts.ended == 0)
        #expect(try f.store.accountFacts("alice").grants.first?.end == later)
        #expect(try f.store.subscriber(publicationId: "monthly", customerNumber: "C-1")?.claimedBy == "alice")
        #expect(try f.store.lookup(publicationId: "monthly", customerNumber: "C-1")?.accountId == "alice")
        var finished = second
        finished.finishedAt = later
        finished.counts.ended = 1
        try f.store.record(finished)
        var refused = first
        refused.finishedAt = Self.listTime
        refused.refusal = "the header lacks verification"
        try f.store.record(refused)
        let imports = try f.store.subscriberImports(limit: 10)
        #expect(imports.map(\.listId) == ["list-2", "list-1"] && imports.first?.counts.ended == 1)
        #expect(imports.first?.refusal == nil && imports.last?.refusal == "the header lacks verification")
        #expect(imports.last?.finishedAt == Self.listTime)
    }

    @Test(arguments: StoreBackend.all)
    func e30InstitutionsRoundTrip(_ backend: StoreBackend) throws {
        let f = try IngestFixture(backend)
        let library = Institution(institutionId: "inst-1", name: "Library", publications: ["monthly", "weekly"],
                                  networks: ["192.0.2.0/24", "2001:db8::/32"], start: Self.listTime, end: nil,
                                  createdAt: Self.listTime)
        #expect(try f.store.saveInstitution(library, at: Self.listTime))
        #expect(try f.store.saveInstitution(library, at: Self.listTime, replacing: true))
        var school = library
        school.institutionId = "inst-2"
        #expect(try f.store.saveInstitution(school, at: Self.listTime), "E30: networks may overlap another institution's")
        #expect(try f.store.institutions() == [library, school])
        #expect(try f.store.deleteInstitution(id: "inst-1", at: Self.listTime) && !(try f.store.deleteInstitution(id: "inst-1", at: Self.listTime)))
    }
}
