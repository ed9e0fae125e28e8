import Entitle
import Foundation
@testable import GatewayConfiguration
@testable import GatewayPush
import IssueCatalog
import TestSupport
import Testing
import Wire
import GatewayTesting

/// Publication morning's cold path: each reader's facts are read once and evaluated once, whether
/// the reader lists first or the push of the new issue reaches its device first, and its token
/// is decided from the answer its list keeps (E16, E20), counted by `issue_gateway_facts_reads_total`
/// and `issue_gateway_entitlement_evaluations_total`.
@Suite struct OneEvaluationPerReaderTests {
    static func instant(_ text: String) -> Instant { Instant(rfc3339: text)! }

    static func subscription(_ id: String, refunded: String? = nil) -> Transaction {
        Transaction(environment: .production, transactionId: id, originalTransactionId: id, productId: "monthly.1m",
                    purchaseDate: instant("2026-02-15T00:00:00Z"), expiresDate: instant("2026-03-15T00:00:00Z"),
                    revocationDate: refunded.map(instant), source: .receipt)
    }

    /// The March issue of `monthly`, published at once (the harness clock stands at 2026-03-01).
    static let march = H.issueBody(id: "2026-03", publishedAt: "2026-03-01T00:00:00Z", paths: ["/content/monthly/2026-03/issue.pdf"])

    /// Reads and evaluations counted while `body` runs.
    static func costs(_ h: H, _ body: () throws -> Void) rethrows -> (reads: Int, evaluations: Int) {
        let counters = h.runtime.core.counters
        let reads = counters.factsReads.value, evaluations = counters.evaluations.value
        try body()
        return (counters.factsReads.value - reads, counters.evaluations.value - evaluations)
    }

    @Test func E16ATokenAfterTheListIsDecidedFromTheKeptAnswerWithoutAnEvaluation() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        try h.subscribe(reader.id)
        var status = 0
        let listed = try Self.costs(h) { status = try h.client.get("/v1/accounts/\(reader.id)/issues", as: reader.token).status }
        #expect(status == 200 && listed == (1, 1))
        var answers: [APIResponse] = []
        let tokens = try Self.costs(h) {
            answers = [try h.token(for: reader, issue: "2026-01"), try h.token(for: reader, publication: "weekly", issue: "w1"),
                       try h.token(for: reader, issue: "2026-04"), try h.token(for: reader, issue: "no-such-issue")]
        }
        #expect(tokens == (0, 0), "the list's answer decides every token")
        #expect(answers.map(\.status) == [200, 403, 404, 404], "entitled (E12), refused (E20), scheduled and unknown (E16)")
        #expect(answers[1].text.contains(#""reason":"noPurchase""#), "E20's nearest reason")
    }

    @Test func E16ATokenWithoutAListKeepsItsAnswerForTheList() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        try h.subscribe(reader.id)
        var statuses: [Int] = []
        let token = try Self.costs(h) { statuses.append(try h.token(for: reader, issue: "2026-01").status) }
        let list = try Self.costs(h) {
            statuses.append(try h.client.get("/v1/accounts/\(reader.id)/issues?publication=monthly", as: reader.token).status)
        }
        #expect(statuses == [200, 200])
        #expect(token == (1, 1) && list == (0, 0), "the token's evaluation kept the answer the list renders")
    }

    @Test func E12E6APushSharesTheListsAnswersAndLeavesItsOwnForTheirLists() throws {
        let key = try APNsTestKey()
        let h = try H.withPushes(apnsKeyPath: key.path)
        try h.seedCatalog()
        let sender = RecordingPushSender()
        let fanOut = PushFanOut(delivery: h.runtime.core.delivery, sender: sender)
        let listedFirst = try h.createAccount(), pushedFirst = try h.createAccount(), refunded = try h.createAccount()
        let listedPhone = try h.registerDevice(listedFirst, 1), pushedPhone = try h.registerDevice(pushedFirst, 2)
        _ = try h.registerDevice(refunded, 3)
        try h.drainPushJobs(fanOut)  // the seeded issues: nobody holds anything yet
        try h.save(listedFirst.id, transactions: [Self.subscription("s-listed")])
        try h.save(pushedFirst.id, transactions: [Self.subscription("s-pushed")])
        // E6: refunded, so as if never bought: no push, and its token refused.
        try h.save(refunded.id, transactions: [Self.subscription("s-refunded", refunded: "2026-02-20T00:00:00Z")])
        let seeded = sender.pushes.count

        #expect(try h.client.post("/v1/publications/monthly/issues", as: H.adminKey, json: Self.march).status == 201)
        var statuses: [Int] = []
        let listed = try Self.costs(h) {
            statuses.append(try h.client.get("/v1/accounts/\(listedFirst.id)/issues", as: listedFirst.token).status)
        }
        #expect(listed == (1, 1))
        let pushed = try Self.costs(h) { try h.drainPushJobs(fanOut) }
        #expect(pushed == (2, 2), "the reader who listed costs the push no read and no evaluation")
        let ref = IssueRef(publicationId: "monthly", issueId: "2026-03")
        let march = sender.pushes.dropFirst(seeded).filter { $0.issue == ref }
        #expect(Set(march.map(\.device.apnsToken)) == [listedPhone, pushedPhone], "only entitled devices (E12, E6)")

        var refusal: APIResponse?
        let afterPush = try Self.costs(h) {
            statuses.append(try h.client.get("/v1/accounts/\(pushedFirst.id)/issues", as: pushedFirst.token).status)
            for reader in [listedFirst, pushedFirst] { statuses.append(try h.token(for: reader, issue: "2026-03").status) }
            refusal = try h.token(for: refunded, issue: "2026-03")
        }
        #expect(afterPush == (0, 0), "the push's answers serve the lists and tokens that follow")
        #expect(statuses == [200, 200, 200, 200])
        #expect(refusal?.status == 403 && refusal?.text.contains(#""reason":"refunded""#) == true, "E20")
    }
}
