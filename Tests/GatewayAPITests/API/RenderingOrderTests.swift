import Entitle
import Foundation
import GatewayCore
import Testing
import Wire
@testable import GatewayConfiguration

/// The answers, the history and the timeline picture are fixed by the facts (ties broken by
/// store, then id), never by the order the facts arrived in or by one process's hashing: two
/// gateways holding the same facts render an account byte for byte alike.
@Suite struct RenderingOrderTests {
    static let single = [("issue.w1", "weekly", "w1"), ("issue.m1", "monthly", "2026-01"), ("issue.m4", "monthly", "2026-04")]

    /// A gateway with the seeded catalog, three single-issue products and one reader holding a
    /// subscription and the three single issues (one refunded) stored in one batch, in either
    /// order, and two grants.
    private func gateway(reversed: Bool) throws -> (H, String, String) {
        let h = try H()
        let (account, token) = try Self.seed(h, reversed: reversed)
        return (h, account, token)
    }

    /// Seeds `h` (catalog, products, the reader's facts) and returns the reader.
    static func seed(_ h: H, reversed: Bool) throws -> (String, String) {
        try h.seedCatalog()
        for (product, publication, issue) in Self.single {
            #expect(try h.client.put("/v1/products/\(product)", as: H.adminKey, json: """
                {"kind":"issue","grants":["\(publication)"],"issue":{"publicationId":"\(publication)","issueId":"\(issue)"}}
                """).status == 201)
        }
        let reader = try h.createAccount()
        let at = { (text: String) in Instant(rfc3339: text)! }
        var transactions = Self.single.enumerated().map { index, item in
            Transaction(environment: .production, transactionId: "single-\(index)", originalTransactionId: "single-\(index)",
                        productId: item.0, purchaseDate: at("2026-02-25T00:00:00Z"),
                        revocationDate: index == 2 ? at("2026-03-01T00:00:00Z") : nil, source: .signedTransaction)
        }
        transactions.append(Transaction(environment: .production, transactionId: "sub-1", originalTransactionId: "sub-1",
                                        productId: "monthly.1m", purchaseDate: at("2026-01-15T00:00:00Z"),
                                        expiresDate: at("2026-03-15T00:00:00Z"), source: .signedTransaction))
        try h.store(VerifiedFacts(transactions: reversed ? transactions.reversed() : transactions), for: reader.id)
        // The history is the order facts arrived in, so the grants arrive in one order; the
        // publications each names are listed in either.
        let publications = reversed ? "[\"monthly\",\"weekly\"]" : "[\"weekly\",\"monthly\"]"
        for (source, externalId, start) in [("print", "p-1", "2026-02-01"), ("support", "s-1", "2026-02-03")] {
            #expect(try h.client.post("/v1/accounts/\(reader.id)/grants", as: H.adminKey, json: """
                {"source":"\(source)","externalId":"\(externalId)","publications":\(publications),"start":"\(start)T00:00:00Z","end":"2026-02-10T00:00:00Z"}
                """).status == 201)
        }
        return (reader.id, reader.token)
    }

    /// What is compared: the answers and pictures of one account.
    static let renderedPaths = ["entitlements", "timeline.svg?publication=monthly", "timeline.svg?publication=weekly",
                                "timeline.svg", "issues?publication=weekly", "issues?publication=monthly", "history"]

    /// The body with the account's own ids (random per gateway) and grant ids replaced.
    private func canonical(_ text: String, account: String, grants: [String]) -> String {
        var out = text.replacingOccurrences(of: account, with: "ACCOUNT")
        for (index, grant) in grants.enumerated() { out = out.replacingOccurrences(of: grant, with: "GRANT\(index)") }
        return out
    }

    private func grantIds(_ h: H, _ account: String) throws -> [String] {
        let body = try h.client.get("/v1/accounts/\(account)/entitlements", as: H.adminKey).json
        return ((body["grants"] as? [[String: Any]]) ?? [])
            .sorted { ($0["source"] as? String ?? "") < ($1["source"] as? String ?? "") }
            .compactMap { $0["grantId"] as? String }
    }

    @Test func twoGatewaysHoldingTheSameFactsRenderAnAccountByteForByte() throws {
        let (a, accountA, _) = try gateway(reversed: false)
        let (b, accountB, _) = try gateway(reversed: true)
        let grantsA = try grantIds(a, accountA), grantsB = try grantIds(b, accountB)
        try #require(grantsA.count == 2 && grantsB.count == 2)
        for path in Self.renderedPaths where path != "history" {
            let fromA = try a.client.get("/v1/accounts/\(accountA)/\(path)", as: H.adminKey)
            let fromB = try b.client.get("/v1/accounts/\(accountB)/\(path)", as: H.adminKey)
            #expect(fromA.status == 200 && fromB.status == 200, "\(path)")
            #expect(canonical(fromA.text, account: accountA, grants: grantsA) == canonical(fromB.text, account: accountB, grants: grantsB),
                    "\(path) differs")
        }
        // Within the one batch of transactions, the history is ordered by the facts.
        let historyA = try a.client.get("/v1/accounts/\(accountA)/history", as: H.adminKey)
        let historyB = try b.client.get("/v1/accounts/\(accountB)/history", as: H.adminKey)
        #expect(historyA.status == 200)
        #expect(canonical(historyA.text, account: accountA, grants: grantsA) == canonical(historyB.text, account: accountB, grants: grantsB))
    }
}
