import Entitle
import GatewayStore
import GatewayTesting
import IssueCatalog
import TestSupport
import Testing
import Wire

/// reports.md E37 against a reference made independently of the derived intervals: a few hundred
/// generated accounts with random facts (trials, renewals with gaps, refunds, grace after billing
/// trouble, three stores), each subscription's state at each instant the definitions name
/// computed from `EntitlementEngine`'s ordinary evaluation of that subscription's facts, summed
/// day by day, and compared with the route's series over a year.
@Suite struct SubscriberMetricsReferenceTests {
    static let day: Int64 = 86_400_000
    static let first = MetricsGateway.at("2025-01-01T00:00:00Z")
    static let days = 365

    struct Subscription {
        var transactions: [Transaction]
        var renewals: [RenewalInfo]
        var store: Store
    }

    /// One subscription's facts: an optional free trial first, then paid periods back to back or
    /// after a gap, some refunded; a lapse in billing trouble sometimes, with the App Store's
    /// grace after the last paid end.
    static func subscription(_ rng: inout SplitMix64, account: Int, index: Int) -> Subscription {
        let store = Store.allCases[Int.random(in: 0..<3, using: &rng)]
        let original = "r\(account)-\(index)"
        var at = first.adding(milliseconds: Int64.random(in: -30...330, using: &rng) * day
                              + Int64.random(in: 0..<day, using: &rng) * (rng.chance(50) ? 1 : 0))
        var transactions: [Transaction] = []
        func add(_ length: Int64, trial: Bool, refunded: Bool) {
            let end = at.adding(milliseconds: length * day)
            transactions.append(Transaction(
                store: store, environment: .production, transactionId: "\(original)-\(transactions.count)",
                originalTransactionId: original, productId: MetricsBackend.product[store]!, purchaseDate: at, expiresDate: end,
                revocationDate: refunded ? at.adding(milliseconds: Int64.random(in: 0..<length * day, using: &rng)) : nil,
                offer: trial ? .freeTrial : nil, source: .notificationV2))
            at = end
        }
        if rng.chance(30) { add(Int64.random(in: 3...14, using: &rng), trial: true, refunded: false) }
        for _ in 0..<Int.random(in: 1...5, using: &rng) {
            if rng.chance(25) { at = at.adding(milliseconds: Int64.random(in: 1...40, using: &rng) * day) }
            add(rng.chance(50) ? 30 : Int64.random(in: 5...60, using: &rng), trial: false, refunded: rng.chance(12))
        }
        var renewals: [RenewalInfo] = []
        if transactions.last?.revocationDate == nil, rng.chance(30) {
            let grace: Instant? = rng.chance(60) ? at.adding(milliseconds: Int64.random(in: 1...16, using: &rng) * day) : nil
            renewals.append(RenewalInfo(store: store, environment: .production, originalTransactionId: original,
                                        autoRenewStatus: true, expirationIntent: .billing, isInBillingRetry: true,
                                        gracePeriodExpiresDate: grace, source: .notificationV2))
        }
        return Subscription(transactions: transactions, renewals: renewals, store: store)
    }

    /// The day's counts from the definitions, for every subscription, over the engine's periods
    /// of `monthly` for (a) all its facts: it serves; (b) its facts without free-trial
    /// transactions: it is active (paid or grace); (c) those without renewal info: its paid
    /// periods, the first of which makes it new.
    static func reference(_ subscriptions: [Subscription], catalog: CatalogSnapshot, policy: EntitlementPolicy,
                          now: Instant) -> [[Int]] {
        var out = Array(repeating: Array(repeating: 0, count: 8), count: days)
        func periods(_ transactions: [Transaction], _ renewals: [RenewalInfo]) -> [ActivePeriod] {
            EntitlementEngine.evaluate(catalog: catalog, facts: AccountFacts(transactions: transactions, renewals: renewals),
                                       policy: policy, now: now).periods(of: "monthly")
        }
        func at(_ periods: [ActivePeriod], _ t: Instant) -> Bool { periods.contains { $0.contains(t) } }
        for s in subscriptions {
            let serves = periods(s.transactions, s.renewals)
            let paying = s.transactions.filter { $0.offer != .freeTrial }
            let active = periods(paying, s.renewals)
            let paid = periods(paying, [])
            let allRefunded = paid.isEmpty && paying.contains { $0.revocationDate != nil }
            let store = Store.allCases.firstIndex(of: s.store)!
            for d in 0..<days {
                let start = first.adding(milliseconds: Int64(d) * day), end = start.adding(milliseconds: day)
                let before = start.adding(milliseconds: -1), last = end.adding(milliseconds: -1)
                let isActive = at(active, last) && !allRefunded
                if isActive { out[d][0] += 1; out[d][1 + store] += 1 }
                if at(serves, last), !at(active, last) || allRefunded { out[d][4] += 1 }  // in trial
                if let p = paid.first, start <= p.start, p.start < end { out[d][5] += 1 }
                if at(serves, before), !at(serves, last), !allRefunded { out[d][6] += 1 }
                if !at(serves, before), at(serves, last), let f = serves.first, f.start < start { out[d][7] += 1 }
            }
        }
        return out
    }

    @Test(arguments: MetricsBackend.all)
    func e37SeriesAgreesWithTheDefinitionsOverTheEngine(_ backend: MetricsBackend) throws {
        let g = try backend.gateway()
        var rng = SplitMix64(seed: 37)
        var all: [Subscription] = []
        for account in 0..<300 {
            let subscriptions = (0..<Int.random(in: 1...3, using: &rng)).map { Self.subscription(&rng, account: account, index: $0) }
            all += subscriptions
            try g.account(subscriptions.flatMap(\.transactions), renewals: subscriptions.flatMap(\.renewals))
        }
        let response = try g.metrics("from=2025-01-01&to=2025-12-31")
        #expect(response.status == 200)
        let points = try #require(response.json["points"] as? [[String: Any]])
        let route = points.map { p -> [Int] in
            let stores = p["activeByStore"] as? [String: Int] ?? [:]
            return [p["active"] as? Int ?? -1, stores["appStore"] ?? -1, stores["googlePlay"] ?? -1, stores["stripe"] ?? -1,
                    p["trials"] as? Int ?? -1, p["new"] as? Int ?? -1, p["churned"] as? Int ?? -1, p["reactivated"] as? Int ?? -1]
        }
        let core = g.h.runtime.core
        let expected = Self.reference(all, catalog: core.catalog.state.snapshot, policy: core.entitlements.policy,
                                      now: g.h.clock.now())
        #expect(route.count == Self.days)
        #expect(expected.map { $0[0] }.reduce(0, +) > 1000, "the generated facts keep many subscriptions active")
        #expect(expected.map { $0[4] }.reduce(0, +) > 0 && expected.map { $0[7] }.reduce(0, +) > 0)
        for d in 0..<min(route.count, Self.days) where route[d] != expected[d] {
            Issue.record("day \(d) (\(points[d]["start"] ?? "")): route \(route[d]), reference \(expected[d])")
        }
    }
}
