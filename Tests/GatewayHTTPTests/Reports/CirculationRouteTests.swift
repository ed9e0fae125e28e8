import Foundation
@testable import GatewayConfiguration
import Testing
import Entitle
import GatewayStore
import Wire
import GatewayTesting

/// E36 through the route, in process: bases in order, byStore, downloads and `notEntitled`, free,
/// scheduled and unknown issues, and the CSV recipient list byte for byte.
@Suite struct CirculationRouteTests {
    typealias H = GatewayHarness

    func circulation(_ h: H, _ issue: String, format: String? = nil) throws -> APIResponse {
        try h.client.get("/v1/publications/monthly/issues/\(issue)/circulation" + (format.map { "?format=\($0)" } ?? ""),
                         as: H.adminKey)
    }

    func transaction(_ id: String, _ from: String, _ to: String, trial: Bool = false) -> Transaction {
        Transaction(environment: .production, transactionId: id, originalTransactionId: id, productId: "monthly.1m",
                    purchaseDate: Instant(rfc3339: from)!, expiresDate: Instant(rfc3339: to)!,
                    offer: trial ? .freeTrial : nil, source: .receipt)
    }

    @Test func e36CountsEachAccountOnceByBasisAndTheCSVListsThem() throws {
        let h = try H()
        try h.seedCatalog()
        let alice = try h.createAccount(), bob = try h.createAccount(), carol = try h.createAccount()
        try h.subscribe(alice.id)  // paid, 2026-01-15 to 2026-03-15: January unlocked at its start (E13)
        try h.store(VerifiedFacts(transactions: [transaction("sub-2", "2026-01-20T00:00:00Z", "2026-02-20T00:00:00Z", trial: true)]),
                    for: bob.id)
        let grant = try h.client.post("/v1/accounts/\(carol.id)/grants", as: H.adminKey, json: """
            {"source":"print","externalId":"p-1","publications":["monthly"],"start":"2026-01-05T00:00:00Z"}
            """)
        #expect(grant.status == 201, "\(grant.text)")
        #expect(try h.token(for: alice, issue: "2026-01").status == 200)
        #expect(try h.token(for: alice, issue: "2026-01").status == 200)
        h.runtime.core.operations.downloads.flush()

        let report = try circulation(h, "2026-01")
        #expect(report.status == 200, "\(report.text)")
        let entitled = try #require(report.json["entitled"] as? [String: Any])
        #expect(entitled["total"] as? Int == 3 && entitled["paid"] as? Int == 1 && entitled["trial"] as? Int == 1
                && entitled["print"] as? Int == 1 && entitled["grant"] as? Int == 0, "\(report.text)")
        #expect((entitled["byStore"] as? [String: Int]) == ["appStore": 2, "googlePlay": 0, "stripe": 0])
        let downloaded = try #require(report.json["downloaded"] as? [String: Int])
        #expect(downloaded == ["total": 1, "paid": 1, "trial": 0, "print": 0, "grant": 0, "notEntitled": 0])
        #expect(report.json["free"] as? Bool == false)

        let csv = try circulation(h, "2026-01", format: "csv")
        #expect(csv.status == 200)
        #expect(csv.header("Content-Type")?.hasPrefix("text/csv") == true)
        let grantId = try #require(grant.json["grantId"] as? String)
        let rows = [
            (alice.id, "\(alice.id),paid,appStore,monthly.1m,sub-1,true,2026-03-01T00:00:00.000Z,2026-03-01T00:00:00.000Z,2"),
            (bob.id, "\(bob.id),trial,appStore,monthly.1m,sub-2,false,,,0"),
            (carol.id, "\(carol.id),print,,,\(grantId),false,,,0"),
        ].sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }.map(\.1)
        let expected = (["accountId,basis,store,productId,subscriptionId,downloaded,firstDownloadAt,lastDownloadAt,downloads"] + rows)
            .map { $0 + "\r\n" }.joined()
        #expect(csv.text == expected)

        // A refund since (E6): alice downloaded and is no longer entitled.
        var refunded = transaction("sub-1", "2026-01-15T00:00:00Z", "2026-03-15T00:00:00Z")
        refunded.revocationDate = Instant(rfc3339: "2026-02-25T00:00:00Z")!
        try h.store(VerifiedFacts(transactions: [refunded]), for: alice.id)
        let after = try circulation(h, "2026-01")
        #expect((after.json["downloaded"] as? [String: Int])?["notEntitled"] == 1, "\(after.text)")
        #expect((after.json["entitled"] as? [String: Any])?["total"] as? Int == 2)
        #expect(try circulation(h, "2026-01", format: "csv").text.contains("\(alice.id),none,,,,true,"))
    }

    @Test func e36FreeScheduledAndUnknownIssues() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        #expect(try h.token(for: reader, issue: "2026-02").status == 200)
        h.runtime.core.operations.downloads.flush()
        let free = try circulation(h, "2026-02")
        #expect(free.status == 200 && free.json["free"] as? Bool == true)
        #expect(free.json["entitled"] is NSNull, "\(free.text)")
        #expect((free.json["downloaded"] as? [String: Int]) == ["total": 1, "paid": 0, "trial": 0, "print": 0, "grant": 0,
                                                                 "notEntitled": 0])
        #expect(try circulation(h, "2026-02", format: "csv").text.contains("\r\n\(reader.id),free,,,,true,"))
        let scheduled = try circulation(h, "2026-04")
        #expect(scheduled.status == 409 && (scheduled.json["error"] as? [String: Any])?["code"] as? String == "not_published", "\(scheduled.text)")
        #expect(try circulation(h, "1999-01").status == 404)
        #expect(try h.client.get("/v1/publications/nope/issues/x/circulation", as: H.adminKey).status == 404)
        #expect(try circulation(h, "2026-01", format: "xml").status == 400)
        #expect(try h.client.get("/v1/publications/monthly/issues/2026-01/circulation", as: reader.token).status == 403)
    }

    @Test func e36InstitutionsAreCountedAsInstitutionsAndARetractedIssueAsPublished() throws {
        let h = try H()
        try h.seedCatalog()
        let made = try h.client.post("/v1/institutions", as: H.adminKey, json: InstitutionRouteTests.body)
        #expect(made.status == 201, "\(made.text)")
        let token = try h.client.send("POST", "/v1/institution/publications/monthly/issues/2026-01/token",
                                      sourceAddress: "192.0.2.77")
        #expect(token.status == 200, "\(token.text)")
        // An account with nothing of its own, served only through the institution's coverage:
        // the institution's download, not the account's.
        let reader = try h.createAccount()
        let covered = try h.client.send("POST", "/v1/accounts/\(reader.id)/publications/monthly/issues/2026-01/token",
                                        as: reader.token, sourceAddress: "192.0.2.77")
        #expect(covered.status == 200, "\(covered.text)")
        h.runtime.core.operations.downloads.flush()
        let report = try circulation(h, "2026-01")
        #expect((report.json["institutions"] as? [String: Int]) == ["entitled": 1, "downloaded": 1], "\(report.text)")
        #expect((report.json["downloaded"] as? [String: Int])?["total"] == 0)
        #expect(try circulation(h, "2026-01", format: "csv").text.split(separator: "\r\n").count == 1, "the header alone")

        try h.subscribe(reader.id)
        #expect(try h.client.send("DELETE", "/v1/publications/monthly/issues/2026-01", as: H.adminKey).status == 200)
        let retracted = try circulation(h, "2026-01")
        #expect(retracted.status == 200, "\(retracted.text)")
        #expect((retracted.json["entitled"] as? [String: Any])?["paid"] as? Int == 1, "counted as if published")
    }

    /// The same facts, arriving in two orders in two gateways, give the same CSV byte for byte.
    @Test func e36TheCSVIsTheSameWhateverOrderTheFactsCameIn() throws {
        let facts: [(String, Transaction)] = [
            ("acct-b", transaction("sub-b", "2026-01-10T00:00:00Z", "2026-02-10T00:00:00Z", trial: true)),
            ("acct-a", transaction("sub-a1", "2026-01-12T00:00:00Z", "2026-02-12T00:00:00Z")),
            ("acct-a", transaction("sub-a2", "2026-01-12T00:00:00Z", "2026-03-12T00:00:00Z")),
            ("acct-B", transaction("sub-c", "2025-12-20T00:00:00Z", "2026-01-20T00:00:00Z")),
        ]
        var answers: [String] = []
        for order in [facts, facts.reversed()] {
            let h = try H()
            try h.seedCatalog()
            for id in ["acct-a", "acct-b", "acct-B"] {
                _ = try h.runtime.core.store.createAccount(Account(id: id, tokenHash: "hash-\(id)", createdAt: H.start))
            }
            for (account, transaction) in order { try h.store(VerifiedFacts(transactions: [transaction]), for: account) }
            let csv = try circulation(h, "2026-01", format: "csv")
            #expect(csv.status == 200)
            answers.append(csv.text)
        }
        #expect(answers[0] == answers[1])
        #expect(answers[0] == """
            accountId,basis,store,productId,subscriptionId,downloaded,firstDownloadAt,lastDownloadAt,downloads\r
            acct-B,paid,appStore,monthly.1m,sub-c,false,,,0\r
            acct-a,paid,appStore,monthly.1m,sub-a1,false,,,0\r
            acct-b,trial,appStore,monthly.1m,sub-b,false,,,0\r

            """)
    }
}
