import Foundation
@testable import GatewayConfiguration
import GatewayStore
import SQLiteStore
import Synchronization
import Testing
import GatewayTesting

/// E30: "History sources `print` and `institution` record what each gave". The first time an
/// account route gives an account an institution's issues, its history gains one `grantGiven`
/// event (source `institution`) naming the institution, its publications, interval and the
/// client address; later requests write nothing and, once it is recorded, do not ask the store.
@Suite struct InstitutionHistoryTests {
    static let covered = InstitutionAccountRouteTests.covered
    static let uncovered = InstitutionAccountRouteTests.uncovered
    static let school = #"{"name":"Hill School","publications":["monthly"],"networks":["203.0.113.0/24"],"start":"2026-02-01T00:00:00Z","end":"2026-07-01T00:00:00Z"}"#

    /// Passes every unit of work through, counting them.
    final class CountingStore: GatewayStore {
        private let base: any GatewayStore
        let reads = Atomic(0)
        let writes = Atomic(0)

        init(_ base: any GatewayStore) { self.base = base }

        func read<R>(_ body: (any ReadTransaction) throws(StoreError) -> R) throws(StoreError) -> R {
            reads.add(1, ordering: .relaxed)
            return try base.read(body)
        }

        func write<R>(_ body: (any WriteTransaction) throws(StoreError) -> R) throws(StoreError) -> R {
            writes.add(1, ordering: .relaxed)
            return try base.write(body)
        }

        var unitsOfWork: Int { reads.load(ordering: .relaxed) + writes.load(ordering: .relaxed) }
    }

    func harness(wrapStore: (SQLiteStore) -> any GatewayStore = { $0 }) throws -> (H, institutionId: String) {
        let h = try H(wrapStore: wrapStore)
        try h.seedCatalog()
        let made = try h.client.post("/v1/institutions", as: H.adminKey, json: InstitutionRouteTests.body)
        #expect(made.status == 201, "\(made.text)")
        return (h, try #require(made.json["institutionId"] as? String))
    }

    func list(_ h: H, _ reader: (id: String, token: String), from address: String) throws -> APIResponse {
        try h.client.send("GET", "/v1/accounts/\(reader.id)/issues?publication=monthly", as: reader.token, sourceAddress: address)
    }

    /// The account's events with the source `institution`, as support reads them.
    func institutionEvents(_ h: H, _ accountId: String) throws -> [[String: Any]] {
        let history = try h.client.get("/v1/accounts/\(accountId)/history", as: H.adminKey)
        #expect(history.status == 200, "\(history.text)")
        return history.objects("events").filter { $0["source"] as? String == "institution" }
    }

    @Test func e30ACoveredListWritesOneGrantGivenEventNamingTheInstitution() throws {
        var wrapped: CountingStore?
        let (h, institutionId) = try harness(wrapStore: { base in
            let counting = CountingStore(base)
            wrapped = counting
            return counting
        })
        let counting = try #require(wrapped)
        let reader = try h.createAccount()

        #expect(try list(h, reader, from: Self.covered).status == 200)
        let events = try institutionEvents(h, reader.id)
        #expect(events.count == 1)
        let given = try #require(events.first)
        #expect(given["kind"] as? String == "grantGiven")
        #expect(given["at"] as? String == "2026-03-01T00:00:00.000Z")
        #expect(given["grantId"] as? String == "institution:\(institutionId)")
        #expect(given["institutionId"] as? String == institutionId)
        #expect(given["institutionName"] as? String == "City Library")
        #expect(given["publications"] as? [String] == ["monthly"])
        #expect(given["start"] as? String == "2026-01-15T00:00:00.000Z")
        #expect(given.keys.contains("end") && given["end"] is NSNull, "open-ended")
        #expect(given["address"] as? String == Self.covered)

        // Recorded: the same reader's next covered requests write nothing and ask the store nothing.
        let before = counting.unitsOfWork
        #expect(try list(h, reader, from: Self.covered).status == 200)
        #expect(try h.client.send("POST", "/v1/accounts/\(reader.id)/publications/monthly/issues/2026-02/token",
                                  as: reader.token, sourceAddress: "2001:db8::9").status == 200)
        #expect(counting.unitsOfWork == before, "no read or write of the store once the pair is known")
        #expect(try institutionEvents(h, reader.id).count == 1)
    }

    @Test func e30UncoveredAdminAndExplanationRequestsWriteNothingAndATokenRecords() throws {
        let (h, _) = try harness()
        let reader = try h.createAccount()
        #expect(try list(h, reader, from: Self.uncovered).status == 200)
        let weekly = try h.client.send("GET", "/v1/accounts/\(reader.id)/issues?publication=weekly", as: reader.token,
                                       sourceAddress: Self.covered)
        #expect(weekly.status == 200)
        #expect(try institutionEvents(h, reader.id).isEmpty, "uncovered, or a publication the institution lacks")

        let byAdmin = try h.client.send("GET", "/v1/accounts/\(reader.id)/issues?publication=monthly", as: H.adminKey,
                                        sourceAddress: Self.covered)
        #expect(byAdmin.status == 200 && byAdmin.text.contains("\"institution\""), "the admin sees the institution's issues")
        let explained = try h.client.send("GET", "/v1/accounts/\(reader.id)/publications/monthly/issues/2026-02/explanation",
                                          as: reader.token, sourceAddress: Self.covered)
        #expect(explained.json["reasons"] as? [String] == ["free", "institution"])
        #expect(try institutionEvents(h, reader.id).isEmpty, "an admin's request and an explanation record nothing")

        let token = try h.client.send("POST", "/v1/accounts/\(reader.id)/publications/monthly/issues/2026-02/token",
                                      as: reader.token, sourceAddress: "2001:db8::9")
        #expect(token.status == 200)
        let events = try institutionEvents(h, reader.id)
        #expect(events.count == 1 && events.first?["address"] as? String == "2001:db8::9", "a token request records")
    }

    @Test func e30AnotherInstitutionGivesASecondEventAndTheExplanationShowsIt() throws {
        let (h, libraryId) = try harness()
        let made = try h.client.post("/v1/institutions", as: H.adminKey, json: Self.school)
        let schoolId = try #require(made.json["institutionId"] as? String)
        let reader = try h.createAccount()
        let other = try h.createAccount()

        #expect(try list(h, reader, from: Self.covered).status == 200)
        #expect(try list(h, reader, from: "203.0.113.5").status == 200)
        #expect(try list(h, reader, from: Self.covered).status == 200)
        let events = try institutionEvents(h, reader.id)
        #expect(events.map { $0["institutionId"] as? String } == [libraryId, schoolId])
        #expect(events.last?["end"] as? String == "2026-07-01T00:00:00.000Z")
        #expect(try institutionEvents(h, other.id).isEmpty)

        // "Why can this reader open the January issue?": the explanation's evidence is the
        // institution's grant, and its history the event that recorded it.
        let explained = try h.client.send("GET", "/v1/accounts/\(reader.id)/publications/monthly/issues/2026-01/explanation",
                                          as: H.adminKey, sourceAddress: Self.covered)
        #expect(explained.json["entitled"] as? Bool == true, "\(explained.text)")
        let history = (explained.json["evidence"] as? [String: Any])?["history"] as? [[String: Any]] ?? []
        #expect(history.map { $0["kind"] as? String } == ["grantGiven"])
        #expect(history.first?["institutionId"] as? String == libraryId)
    }

    @Test func e30ChangingOrDeletingAnInstitutionWritesOnTheAccountsItWasGivenTo() throws {
        let (h, institutionId) = try harness()
        let reader = try h.createAccount()
        #expect(try list(h, reader, from: Self.covered).status == 200)

        let renamed = InstitutionRouteTests.body.replacingOccurrences(of: "City Library", with: "Town Library")
        #expect(try h.client.send("PUT", "/v1/institutions/\(institutionId)", as: H.adminKey, body: Array(renamed.utf8)).status == 200)
        #expect(try institutionEvents(h, reader.id).count == 1, "a new name gives nothing new")

        let ended = renamed.replacingOccurrences(of: #""end":null"#, with: #""end":"2026-06-01T00:00:00Z""#)
        #expect(try h.client.send("PUT", "/v1/institutions/\(institutionId)", as: H.adminKey, body: Array(ended.utf8)).status == 200)
        let changed = try #require(try institutionEvents(h, reader.id).last)
        #expect(changed["kind"] as? String == "grantChanged")
        #expect(changed["changes"] as? [String] == ["end"])
        #expect(changed["end"] as? String == "2026-06-01T00:00:00.000Z")

        #expect(try h.client.send("DELETE", "/v1/institutions/\(institutionId)", as: H.adminKey).status == 200)
        let revoked = try #require(try institutionEvents(h, reader.id).last)
        #expect(revoked["kind"] as? String == "grantRevoked")
        #expect(revoked["institutionName"] as? String == "Town Library")
        #expect(try institutionEvents(h, reader.id).count == 3)
    }
}
