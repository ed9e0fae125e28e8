// `issue-gateway-bench reports-load <sqlite file> <accounts>`: loads accounts with realistic facts
// for benchmarks/reports/run.sh straight through the store's units of work (a thousand accounts
// per unit of work; each account's facts saved, bound to it and its facts version bumped, so the
// reports' derived rows are marked due as at ingest): monthly and annual subscriptions
// in all three stores, free trials, renewals that lapse and come back, refunds, billing retry
// with grace, non-renewing purchases, print and support grants, over the last six years.
import Foundation
import Entitle
import GatewayStore
import IssueCatalog
import SQLiteStore
import Wire

func runReportsLoad() {
    let args = Array(CommandLine.arguments.dropFirst(2))
    guard args.count == 2, let accounts = Int(args[1]), accounts > 0 else {
        FileHandle.standardError.write("usage: issue-gateway-bench reports-load <sqlite file> <accounts>\n".data(using: .utf8)!)
        exit(2)
    }
    do {
        let store = try SQLiteStore(path: args[0])
        let products = try store.loadCatalog().products
        var load = ReportsLoad(products: products, now: Instant(secondsSinceEpoch: Int64(Date().timeIntervalSince1970)))
        let seconds = try loadInBatches(accounts, into: store) { n, tx throws(StoreError) in try load.account(n, tx) }
        print(String(format: "reports-load: %d accounts, %d transactions, %d grants in %.1f s (%.0f accounts/s)",
                     accounts, load.transactions, load.grants, seconds, Double(accounts) / seconds))
    } catch {
        FileHandle.standardError.write("reports-load: \(error)\n".data(using: .utf8)!)
        exit(1)
    }
}

/// Writes accounts `0..<accounts` a thousand to a unit of work (`body` writes one); the seconds taken.
func loadInBatches(_ accounts: Int, into store: any GatewayStore,
                   _ body: (Int, any WriteTransaction) throws(StoreError) -> Void) throws -> Double {
    let batch = 1000
    var failure: (any Error)?
    let seconds = measureSeconds {
        do {
            for first in stride(from: 0, to: accounts, by: batch) {
                try store.write { tx throws(StoreError) in
                    for n in first..<min(first + batch, accounts) { try body(n, tx) }
                }
            }
        } catch {
            failure = error
        }
    }
    if let failure { throw failure }
    return seconds
}

/// What one loaded account holds, drawn at random.
struct ReportsLoad {
    static let day: Int64 = 86_400_000
    let now: Instant
    /// Auto-renewable products of `monthly` by store, monthly and annual; the non-renewing one.
    let monthly: [(store: Store, monthly: String, annual: String)]
    let nonRenewing: String?
    /// Out of 100 subscriptions, how many may begin up to `longHistoryDays` ago rather than
    /// within the last six years (0 for the reports benchmark: its figures stay comparable).
    var longHistoryPercent = 0
    var longHistoryDays: Int64 = 5_100
    var rng = SystemRandomNumberGenerator()
    private(set) var transactions = 0, grants = 0

    init(products: [Product], now: Instant) {
        self.now = now
        let renewing = products.filter { $0.kind == .autoRenewable && $0.grants == ["monthly"] }
        monthly = Store.allCases.compactMap { store in
            let mine = renewing.filter { $0.store == store }.map(\.storeProductId)
            // The period is the id's last word: `monthly.annual` is annual.
            guard let m = mine.first(where: { $0.hasSuffix("monthly") }), let a = mine.first(where: { $0.hasSuffix("annual") })
            else { return nil }
            return (store, m, a)
        }
        nonRenewing = products.first { $0.kind == .nonRenewing && $0.grants.contains("monthly") }?.storeProductId
        precondition(!monthly.isEmpty, "the catalog has no monthly and annual products of monthly (catalog/)")
    }

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }

    mutating func account(_ n: Int, _ tx: any WriteTransaction) throws(StoreError) {
        let id = "bench-\(n)"
        _ = try tx.insert(Account(id: id, tokenHash: "bench:\(id)", createdAt: now))
        var facts: [Transaction] = [], renewals: [RenewalInfo] = []
        for s in 0..<(chance(15) ? 2 : 1) { subscription("\(n)-\(s)", &facts, &renewals) }
        if let nonRenewing, chance(5) {
            let at = now.adding(milliseconds: -Int64.random(in: 1...2000, using: &rng) * Self.day)
            facts.append(Transaction(environment: .production, transactionId: "nr-\(n)", originalTransactionId: "nr-\(n)",
                                     productId: nonRenewing, purchaseDate: at, source: .notificationV2))
        }
        transactions += facts.count
        // What the ingest writes for new facts of one account (E1 has nothing to merge, E4 binds
        // them to it), without its history events: then the facts version, whose bump marks the
        // reports' derived rows due as at ingest (decision 96).
        try tx.save(facts)
        for renewal in renewals { try tx.save(renewal) }
        for key in Set(facts.map(\.subscriptionKey)) { try tx.setOwner(id, of: key, at: now) }
        try tx.bumpFactsVersion(ofAccount: id)
        if chance(6) {  // a print subscriber's grant, or a support gesture
            let start = now.adding(milliseconds: -Int64.random(in: 0...1500, using: &rng) * Self.day)
            let print = chance(70)
            _ = try tx.insert(Grant(grantId: "g-\(n)", accountId: id, source: print ? "print" : "support", externalId: "e-\(n)",
                                    publications: ["monthly"], start: start,
                                    end: chance(50) ? nil : start.adding(milliseconds: 365 * Self.day), createdAt: start))
            try tx.bumpFactsVersion(ofAccount: id)
            grants += 1
        }
    }

    /// One store subscription: a trial sometimes, monthly or annual renewals until it lapses, a
    /// return sometimes, a refund now and then, billing retry with grace at the end sometimes.
    private mutating func subscription(_ key: String, _ facts: inout [Transaction], _ renewals: inout [RenewalInfo]) {
        let product = monthly[Int.random(in: 0..<monthly.count, using: &rng)]
        let annual = chance(20)
        let original = product.store == .stripe ? "sub_\(key)" : product.store == .googlePlay ? "GPA.\(key)" : "1000\(key)"
        let history = longHistoryPercent > 0 && chance(longHistoryPercent) ? longHistoryDays : 2200
        var at = now.adding(milliseconds: -Int64.random(in: 0...history, using: &rng) * Self.day)
        var count = 0
        func add(_ length: Int64, trial: Bool, refunded: Bool, into facts: inout [Transaction]) {
            let end = at.adding(milliseconds: length * Self.day)
            facts.append(Transaction(store: product.store, environment: .production, transactionId: "\(original).\(count)",
                                     originalTransactionId: original, productId: annual ? product.annual : product.monthly,
                                     purchaseDate: at, expiresDate: end, revocationDate: refunded ? at.adding(milliseconds: Self.day) : nil,
                                     offer: trial ? .freeTrial : nil, source: .notificationV2))
            count += 1
            at = end
        }
        if chance(25) { add(7, trial: true, refunded: false, into: &facts) }
        let long = history > 2200  // up to 14 years of renewals, some annual
        var periods = annual ? Int.random(in: 1...(long ? 14 : 6), using: &rng) : Int.random(in: 1...(long ? 160 : 40), using: &rng)
        while periods > 0, at < now {
            if chance(3) { at = at.adding(milliseconds: Int64.random(in: 10...120, using: &rng) * Self.day) }  // a lapse, then back
            add(annual ? 365 : 30, trial: false, refunded: chance(2), into: &facts)
            periods -= 1
        }
        if chance(8) {
            renewals.append(RenewalInfo(store: product.store, environment: .production, originalTransactionId: original,
                                        autoRenewStatus: true, expirationIntent: .billing, isInBillingRetry: true,
                                        gracePeriodExpiresDate: chance(50) ? at.adding(milliseconds: 16 * Self.day) : nil,
                                        source: .notificationV2))
        }
    }
}
