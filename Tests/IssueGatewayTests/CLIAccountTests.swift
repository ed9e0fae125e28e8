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
                        expiresDate: Self.at(end + "T00:00:00Z"), source: .receipt)
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

    /// The command weighs grants (E21) as the route does.
    @Test func aGrantCountsAsInTheRoute() throws {
        let cli = CLIHarness()
        try guideReader(cli)
        let store = try cli.database.open()
        _ = try store.give(Grant(grantId: "g1", accountId: "reader", source: "print", externalId: "p1", publications: ["monthly"],
                                 start: Self.at("2012-05-10T00:00:00Z"), end: Self.at("2012-05-20T00:00:00Z"),
                                 createdAt: Self.at("2012-05-10T00:00:00Z")))
        #expect(cli.run("account", "explain", "reader", "monthly/2012-05") == 0, "\(cli.err)")
        #expect(cli.out.contains("entitled:    yes (unlockedAtStart)"), "\(cli.out)")
        #expect(cli.out.contains("Your publisher gave you access from 10 May 2012; the May 2012 issue, the latest one out that day (1 May 2012), comes with it."))
        #expect(cli.out.contains("transaction: none") && cli.out.contains("grant:       g1 (print/p1, from 2012-05-10T00:00:00.000Z)"))
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

/// `issue-gateway account history`: what the history route answers, from the database.
@Suite struct CLIAccountHistoryTests {
    @Test func itPrintsTheRoutesAnswerPageByPage() throws {
        let cli = CLIHarness()
        #expect(cli.run("catalog", "import", CLIHarness.sampleCatalog) == 0)
        let store = try cli.database.open()
        let t0 = Instant(rfc3339: "2012-07-01T00:00:00Z")!
        try store.createAccount(Account(id: "reader", tokenHash: String(repeating: "0", count: 64), createdAt: t0))
        let transaction = Transaction(environment: .production, transactionId: "t1", originalTransactionId: "t1",
                                      productId: "monthly.ios.monthly", purchaseDate: Instant(rfc3339: "2012-02-20T00:00:00Z")!,
                                      expiresDate: Instant(rfc3339: "2012-03-20T00:00:00Z")!, source: .receipt)
        _ = try store.ingest(IngestBatch(accountId: "reader", transactions: [transaction], at: t0), policy: .transfer)
        #expect(cli.run("account", "history", "reader") == 0, "\(cli.err)")
        let whole = try #require(try JSONSerialization.jsonObject(with: Data(cli.out.utf8)) as? [String: Any])
        let events = try #require(whole["events"] as? [[String: Any]])
        #expect(events.map { $0["kind"] as? String } == ["ownershipBound", "transactionSeen"])
        #expect(events.allSatisfy { $0["source"] as? String == "receipt" && $0["at"] as? String == "2012-07-01T00:00:00.000Z" })
        #expect(cli.run("account", "history", "reader", "--limit", "1") == 0)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(cli.out.utf8)) as? [String: Any])
        let next = try #require(first["next"] as? String)
        #expect(cli.run("account", "history", "reader", "--limit", "1", "--after", next) == 0)
        #expect(cli.out.contains(#""kind":"transactionSeen""#) && !cli.out.contains(#""next""#))
        #expect(cli.run("account", "history", "nobody") == 1)
        #expect(cli.run("account", "history", "reader", "--limit", "0") == 2)
        #expect(cli.run("account", "history") == 2)
    }
}
