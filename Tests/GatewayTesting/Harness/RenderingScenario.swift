import Entitle
@testable import GatewayConfiguration
import Foundation
import Testing
import Wire

/// One reader whose answers must not depend on the order its facts arrived in: a subscription,
/// three single issues (one refunded) stored in one batch in either order, and two grants. The
/// rendering-order tests compare it across orders, and across two gateways on one PostgreSQL.
package enum RenderingScenario {
    package static let single = [("issue.w1", "weekly", "w1"), ("issue.m1", "monthly", "2026-01"), ("issue.m4", "monthly", "2026-04")]

    /// Seeds `h` (catalog, products, the reader's facts) and returns the reader.
    package static func seed(_ h: H, reversed: Bool) throws -> (String, String) {
        try h.seedCatalog()
        for (product, publication, issue) in single {
            #expect(try h.client.put("/v1/products/\(product)", as: H.adminKey, json: """
                {"kind":"issue","grants":["\(publication)"],"issue":{"publicationId":"\(publication)","issueId":"\(issue)"}}
                """).status == 201)
        }
        let reader = try h.createAccount()
        let at = { (text: String) in Instant(rfc3339: text)! }
        var transactions = single.enumerated().map { index, item in
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
    package static let renderedPaths = ["entitlements", "timeline.svg?publication=monthly", "timeline.svg?publication=weekly",
                                "timeline.svg", "issues?publication=weekly", "issues?publication=monthly", "history"]
}
