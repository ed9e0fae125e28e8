// `swift run -c release issue-gateway-bench engine`: the entitlement engine on a
// 15-year monthly subscriber (gaps, a refund, an upgrade to a bundle), at three sizes.
import Entitle
import Foundation
import IssueCatalog
import Wire

private enum EngineBenchmarkConfig {
    static let start = Instant(rfc3339: "2011-01-01T00:00:00Z")!
    static let span: Int64 = 15 * 365 * 86_400_000
    static let baseIssues = 5_000
    static let baseTransactions = 180
    /// Wall-clock per measurement; the best of `rounds` batches is reported.
    static let batchSeconds = 0.3
    static let rounds = 5
}

private struct EngineScenario {
    let name: String
    let catalog: EntitlementCatalog
    let transactions: [Transaction]
    let renewals: [RenewalInfo]
    let now: Instant

    /// Three publications sharing `issueCount` issues (monthly 3.6 %, weekly 15.6 %, daily the
    /// rest), evenly spread over 15 years; `transactionCount` renewals over the same 15 years.
    init(name: String, issueCount: Int, transactionCount: Int) {
        typealias C = EngineBenchmarkConfig
        self.name = name
        let counts = ["monthly": issueCount * 36 / 1000, "weekly": issueCount * 156 / 1000]
        var issues: [Issue] = []
        for (pub, count) in counts.merging(["daily": issueCount - counts.values.reduce(0, +)], uniquingKeysWith: { a, _ in a }) {
            for i in 0..<count {
                issues.append(Issue(publicationId: pub, id: "\(pub)-\(i)", title: "\(pub) \(i)",
                                    publishedAt: C.start.adding(milliseconds: C.span * Int64(i) / Int64(count)),
                                    free: i % 97 == 0))
            }
        }
        let catalog = Catalog(
            publications: ["daily", "weekly", "monthly"].map { Publication(id: $0, title: $0) },
            products: [Product(id: "daily.monthly", kind: .autoRenewable, grants: ["daily"], subscriptionGroup: "g", level: 2),
                       Product(id: "bundle.monthly", kind: .autoRenewable, grants: ["daily", "weekly", "monthly"],
                               subscriptionGroup: "g", level: 1)],
            issues: issues)
        self.catalog = EntitlementCatalog(CatalogSnapshot(catalog))
        // Renewals back to back, two gaps, one refund at a third, an upgrade at two thirds.
        let length = C.span / Int64(transactionCount)
        var txs: [Transaction] = []
        for i in 0..<transactionCount {
            if i == transactionCount / 4 || i == transactionCount / 2 { continue }  // gaps
            let purchase = C.start.adding(milliseconds: length * Int64(i))
            let upgradeAt = transactionCount * 2 / 3
            txs.append(Transaction(
                environment: .production, transactionId: "\(1_000_000 + i)", originalTransactionId: "1000000",
                productId: i <= upgradeAt ? "daily.monthly" : "bundle.monthly", purchaseDate: purchase,
                expiresDate: purchase.adding(milliseconds: length),
                revocationDate: i == transactionCount / 3 ? purchase.adding(milliseconds: length / 2) : nil,
                isUpgraded: i == upgradeAt, offer: i == 0 ? .freeTrial : nil, source: .receipt))
        }
        transactions = txs
        renewals = [RenewalInfo(environment: .production, originalTransactionId: "1000000",
                                productId: "bundle.monthly", autoRenewStatus: true, source: .receipt)]
        now = C.start.adding(milliseconds: C.span - length / 2)
    }

    func evaluate() -> AccountEntitlements {
        EntitlementEngine.evaluate(catalog: catalog, facts: AccountFacts(transactions: transactions, renewals: renewals),
                                   policy: .default, now: now)
    }
}

/// Microseconds of this thread's CPU time per call of `body`, best batch of several. CPU time,
/// not wall-clock: the machine's cores are shared, and time spent descheduled is not the engine's.
private func microseconds(_ body: () -> Int) -> (perCall: Double, sink: Int) {
    var sink = 0
    var iterations = 1
    func measure() -> Double {
        let start = threadCPUSeconds()
        for _ in 0..<iterations { sink &+= body() }
        return threadCPUSeconds() - start
    }
    while measure() < EngineBenchmarkConfig.batchSeconds / 4 { iterations *= 2 }  // calibrate a batch
    iterations *= 4
    var best = Double.infinity
    for _ in 0..<EngineBenchmarkConfig.rounds { best = min(best, measure() * 1e6 / Double(iterations)) }
    return (best, sink)
}

private func threadCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

func runEngineBenchmark() {
    typealias C = EngineBenchmarkConfig
    let scenarios = [
        EngineScenario(name: "base", issueCount: C.baseIssues, transactionCount: C.baseTransactions),
        EngineScenario(name: "10x issues", issueCount: C.baseIssues * 10, transactionCount: C.baseTransactions),
        EngineScenario(name: "10x transactions", issueCount: C.baseIssues, transactionCount: C.baseTransactions * 10),
    ]
    print("entitlement engine: one account, 3 publications; µs of CPU time per call, best of \(C.rounds) batches")
    print("size              issues  txs   entitled  evaluate  +one issue  +weekly list  +entitled list  +full list")
    for s in scenarios {
        let sample = s.evaluate()
        let entitled = sample.issues(publicationId: nil, entitledOnly: true).count
        // The token path: one issue (the latest weekly one) asked about.
        let latestWeekly = sample.issues(publicationId: "weekly", entitledOnly: false)[0].issue.ref
        let evaluate = microseconds { s.evaluate().subscriptions.count }
        let oneIssue = microseconds { s.evaluate().isEntitled(latestWeekly) ? 1 : 0 }
        let weeklyList = microseconds { s.evaluate().issues(publicationId: "weekly", entitledOnly: false).count }
        let entitledList = microseconds { s.evaluate().issues(publicationId: nil, entitledOnly: true).count }
        let fullList = microseconds { s.evaluate().issues(publicationId: nil, entitledOnly: false).count }
        let cols: [String] = [
            s.name.padding(toLength: 16, withPad: " ", startingAt: 0),
            String(s.catalog.snapshot.catalog.issues.count).leftPad(7),
            String(s.transactions.count).leftPad(5),
            String(entitled).leftPad(9),
            String(format: "%8.1f", evaluate.perCall), String(format: "%10.1f", oneIssue.perCall),
            String(format: "%12.1f", weeklyList.perCall), String(format: "%14.1f", entitledList.perCall),
            String(format: "%10.1f", fullList.perCall),
        ]
        print(cols.joined(separator: "  "))
        if evaluate.sink == 42 { print("") }  // keeps the optimiser from discarding the work
    }
}

private extension String {
    func leftPad(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
