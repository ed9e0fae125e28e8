import Entitle
import Foundation
import GatewayStore
import IssueCatalog
import Testing
import Wire

/// `issue-gateway account explain`: the explanation (E20) at a terminal, from the database.
@Suite struct CLIAccountTests {
    static func at(_ text: String) -> Instant { Instant(rfc3339: text)! }

    /// The Guide's magazine reader on the sample catalog: 20 February to 20 April, then 17 June.
    private func guideReader(_ cli: CLIHarness) throws {
        #expect(cli.run("catalog", "import", CLIHarness.sampleCatalog) == 0)
        let store = try cli.database.open()
        try store.createAccount(Account(id: "reader", tokenHash: String(repeating: "0", count: 64), createdAt: Self.at("2012-01-01T00:00:00Z")))
        let periods = [("t1", "2012-02-20", "2012-03-20"), ("t2", "2012-03-20", "2012-04-20"), ("t3", "2012-06-17", "2012-07-17")]
        let transactions = periods.map { id, start, end in
            Transaction(environment: .production, transactionId: id, originalTransactionId: id == "t3" ? "t3" : "t1",
                        productId: "monthly.ios.monthly", purchaseDate: Self.at(start + "T00:00:00Z"),
                        expiresDate: Self.at(end + "T00:00:00Z"), source: .verifyReceipt)
        }
        _ = try store.ingest(IngestBatch(accountId: "reader", transactions: transactions, at: Self.at("2012-07-01T00:00:00Z")),
                             policy: .transfer)
    }

    @Test func itSaysWhyNotMay() throws {
        let cli = CLIHarness()
        try guideReader(cli)
        #expect(cli.run("account", "explain", "reader", "monthly/2012-05") == 0, "\(cli.err)")
        #expect(cli.out.contains("Your subscription ended on 20 April 2012 and restarted on 17 June 2012; the May 2012 issue came out on 1 May 2012, between them."))
        #expect(cli.out.contains("entitled:    no (notSubscribedWhenPublished)"))
        #expect(cli.run("account", "explain", "reader", "monthly/2012-06") == 0)
        #expect(cli.out.contains("entitled:    yes (unlockedAtStart)") && cli.out.contains("transaction: t3"))
    }

    @Test func unknownsAndUsageAreErrors() throws {
        let cli = CLIHarness()
        try guideReader(cli)
        #expect(cli.run("account", "explain", "nobody", "monthly/2012-05") == 1)
        #expect(cli.err.contains("no account nobody"))
        #expect(cli.run("account", "explain", "reader", "monthly/1999-01") == 1)
        #expect(cli.run("account", "explain", "reader", "monthly") == 2)
    }
}
