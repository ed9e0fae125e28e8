import Entitle
import Foundation
import GatewayStore
import GatewayTesting
import IssueCatalog
import Testing
import Wire

/// reports.md E37 through `GET /v1/publications/{publicationId}/metrics` in process, on every
/// backend: each definition at midnight, grace and billing retry, trials, refunds,
/// reactivation, weeks and months, the limits of the query.
@Suite struct SubscriberMetricsTests {
    typealias G = MetricsGateway

    /// A period from midnight to midnight counts active from its first day through the day
    /// before it ends, new on its first day, churned on the day it ends (end(D) − 1 ms and
    /// start(D) − 1 ms, decision "Boundaries").
    @Test(arguments: MetricsBackend.all)
    func e37ActiveNewAndChurnedAtMidnight(_ backend: MetricsBackend) throws {
        let g = try backend.gateway()
        try g.account([G.period(.appStore, "a1", of: "a", "2025-01-10T00:00:00Z", "2025-02-10T00:00:00Z")])
        let p = try g.points("from=2025-01-09&to=2025-02-11")
        #expect(p.count == 34)
        #expect(counts(p["2025-01-09"]) == [0, 0, 0, 0, 0])
        #expect(counts(p["2025-01-10"]) == [1, 0, 1, 0, 0])
        #expect(counts(p["2025-02-09"]) == [1, 0, 0, 0, 0])
        #expect(counts(p["2025-02-10"]) == [0, 0, 0, 1, 0])
        #expect(counts(p["2025-02-11"]) == [0, 0, 0, 0, 0])
        let byStore = p["2025-01-10"]?["activeByStore"] as? [String: Int]
        #expect(byStore == ["appStore": 1, "googlePlay": 0, "stripe": 0])
    }

    /// E8: the App Store's grace period is active; billing retry without grace is not.
    @Test(arguments: MetricsBackend.all)
    func e37GraceIsActiveBillingRetryIsNot(_ backend: MetricsBackend) throws {
        let g = try backend.gateway()
        try g.account([G.period(.appStore, "g1", of: "g", "2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z")],
                      renewals: [RenewalInfo(environment: .production, originalTransactionId: "g", autoRenewStatus: true,
                                             expirationIntent: .billing, isInBillingRetry: true,
                                             gracePeriodExpiresDate: G.at("2025-02-06T00:00:00Z"), source: .notificationV2)])
        try g.account([G.period(.appStore, "r1", of: "r", "2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z")],
                      renewals: [RenewalInfo(environment: .production, originalTransactionId: "r", autoRenewStatus: true,
                                             expirationIntent: .billing, isInBillingRetry: true, source: .notificationV2)])
        let p = try g.points("from=2025-01-31&to=2025-02-07")
        #expect(counts(p["2025-01-31"]) == [2, 0, 0, 0, 0])
        #expect(counts(p["2025-02-01"]) == [1, 0, 0, 1, 0], "billing retry is not active: churned the day it lapses")
        #expect(counts(p["2025-02-05"]) == [1, 0, 0, 0, 0], "in grace")
        #expect(counts(p["2025-02-06"]) == [0, 0, 0, 1, 0], "grace over")
    }

    /// A free trial is a trial, not active; the day it converts the subscription is new, and it
    /// never stopped serving, so nothing churned.
    @Test(arguments: MetricsBackend.all)
    func e37TrialThenConversion(_ backend: MetricsBackend) throws {
        let g = try backend.gateway()
        try g.account([G.period(.googlePlay, "t1", of: "gpa.1", "2025-03-01T00:00:00Z", "2025-03-08T00:00:00Z", trial: true),
                       G.period(.googlePlay, "t2", of: "gpa.1", "2025-03-08T00:00:00Z", "2025-04-08T00:00:00Z")])
        let p = try g.points("from=2025-02-28&to=2025-04-09")
        #expect(counts(p["2025-02-28"]) == [0, 0, 0, 0, 0])
        #expect(counts(p["2025-03-01"]) == [0, 1, 0, 0, 0])
        #expect(counts(p["2025-03-07"]) == [0, 1, 0, 0, 0])
        #expect(counts(p["2025-03-08"]) == [1, 0, 1, 0, 0], "converted: new that day")
        #expect((p["2025-03-08"]?["activeByStore"] as? [String: Int])?["googlePlay"] == 1)
        #expect(counts(p["2025-04-08"]) == [0, 0, 0, 1, 0])
        #expect(p.values.map { $0["churned"] as? Int ?? 0 }.reduce(0, +) == 1, "the conversion churns nothing")
    }

    /// E6 and reports.md Decisions: a subscription whose paid periods were all refunded was never
    /// new, active or churned; a trial before it still counts as a trial.
    @Test(arguments: MetricsBackend.all)
    func e37RefundOfEveryPeriodCountsNothing(_ backend: MetricsBackend) throws {
        let g = try backend.gateway()
        try g.account([G.period(.appStore, "x1", of: "x", "2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z",
                                refunded: "2025-01-15T00:00:00Z")])
        try g.account([G.period(.stripe, "y1", of: "sub_y", "2025-01-01T00:00:00Z", "2025-01-08T00:00:00Z", trial: true),
                       G.period(.stripe, "y2", of: "sub_y", "2025-01-08T00:00:00Z", "2025-02-08T00:00:00Z",
                                refunded: "2025-01-20T00:00:00Z")])
        let p = try g.points("from=2024-12-31&to=2025-02-10")
        let totals = ["active", "new", "churned", "reactivated"].map { key in p.values.map { $0[key] as? Int ?? 0 }.reduce(0, +) }
        #expect(totals == [0, 0, 0, 0])
        #expect(counts(p["2025-01-07"]) == [0, 1, 0, 0, 0], "the trial before the refunded period is a trial")
        #expect(counts(p["2025-01-08"]) == [0, 0, 0, 0, 0])
    }

    /// A subscription that lapses and comes back is churned, then reactivated; a Stripe
    /// resubscription under a new id is a new subscription instead.
    @Test(arguments: MetricsBackend.all)
    func e37ReactivationAndResubscription(_ backend: MetricsBackend) throws {
        let g = try backend.gateway()
        try g.account([G.period(.appStore, "b1", of: "b", "2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z"),
                       G.period(.appStore, "b2", of: "b", "2025-03-01T00:00:00Z", "2025-04-01T00:00:00Z")])
        try g.account([G.period(.stripe, "in_1", of: "sub_1", "2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z"),
                       G.period(.stripe, "in_2", of: "sub_2", "2025-03-01T00:00:00Z", "2025-04-01T00:00:00Z")])
        let p = try g.points("from=2025-01-01&to=2025-04-01")
        #expect(counts(p["2025-01-01"]) == [2, 0, 2, 0, 0])
        #expect(counts(p["2025-02-01"]) == [0, 0, 0, 2, 0])
        #expect(counts(p["2025-03-01"]) == [2, 0, 1, 0, 1], "the App Store one is reactivated, the new Stripe one is new")
        #expect(p["2025-03-01"]?["activeByStore"] as? [String: Int] == ["appStore": 1, "googlePlay": 0, "stripe": 1])
    }

    /// E10: non-renewing purchases are subscriptions; a second one bought before the first ends
    /// stacks after it, so it is new (and the first churned) the day the first ends.
    @Test(arguments: MetricsBackend.all)
    func e37NonRenewingPurchasesStack(_ backend: MetricsBackend) throws {
        let g = try backend.gateway()
        func purchase(_ id: String, _ at: String) -> Transaction {
            Transaction(environment: .production, transactionId: id, originalTransactionId: id, productId: "monthly.old",
                        purchaseDate: G.at(at), source: .notificationV2)
        }
        try g.account([purchase("n1", "2025-01-01T00:00:00Z"), purchase("n2", "2025-02-01T00:00:00Z")])
        let p = try g.points("from=2025-01-01&to=2025-07-02")
        #expect(counts(p["2025-01-01"]) == [1, 0, 1, 0, 0])
        #expect(counts(p["2025-02-01"]) == [1, 0, 0, 0, 0], "bought, but its period starts when the first ends")
        #expect(counts(p["2025-04-01"]) == [1, 0, 1, 1, 0])
        #expect(counts(p["2025-07-01"]) == [0, 0, 0, 1, 0])
    }

    /// A subscription that moves to another product of the publication (a crossgrade keeps its
    /// original transaction id) is one subscription: new once, never churned by the move.
    @Test(arguments: MetricsBackend.all)
    func e37ChangeOfProductIsOneSubscription(_ backend: MetricsBackend) throws {
        let g = try backend.gateway()
        var annual = G.period(.appStore, "u2", of: "u", "2025-02-01T00:00:00Z", "2026-02-01T00:00:00Z")
        annual.productId = "monthly.1y"
        try g.account([G.period(.appStore, "u1", of: "u", "2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z"), annual])
        try g.account([G.period(.appStore, "t1", of: "t", "2025-01-15T00:00:00Z", "2025-03-15T00:00:00Z")])
        try g.account([G.period(.appStore, "v1", of: "v", "2025-01-20T00:00:00Z", "2025-03-20T00:00:00Z")])
        let p = try g.points("from=2025-01-01&to=2025-03-31")
        #expect(p.values.map { $0["new"] as? Int ?? 0 }.reduce(0, +) == 3)
        #expect(counts(p["2025-02-01"]) == [3, 0, 0, 0, 0])
        #expect(counts(p["2025-03-31"]) == [1, 0, 0, 0, 0])
    }

    /// A series reads each product's rows in id order and merges them by subscription: ids
    /// interleaved across two products of one store, one subscription in both (a crossgrade) and
    /// a sandbox subscription with a production one's id (another subscription, E3's environment
    /// being part of its key) are each counted once.
    @Test(arguments: MetricsBackend.all)
    func e37SubscriptionsInterleavedAcrossProductsCountOnce(_ backend: MetricsBackend) throws {
        let g = try backend.gateway()
        func annual(_ id: String, of original: String, _ from: String, _ to: String) -> Transaction {
            var t = G.period(.appStore, id, of: original, from, to)
            t.productId = "monthly.1y"
            return t
        }
        var sandbox = G.period(.appStore, "sb1", of: "b", "2025-01-20T00:00:00Z", "2025-02-20T00:00:00Z")
        sandbox.environment = .sandbox
        try g.account([G.period(.appStore, "a1", of: "a", "2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z")])
        try g.account([annual("b1", of: "b", "2025-01-01T00:00:00Z", "2026-01-01T00:00:00Z")])
        try g.account([G.period(.appStore, "c1", of: "c", "2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z"),
                       annual("c2", of: "c", "2025-02-01T00:00:00Z", "2026-02-01T00:00:00Z")])
        try g.account([annual("d1", of: "d", "2025-01-10T00:00:00Z", "2026-01-10T00:00:00Z")])
        try g.account([G.period(.appStore, "e1", of: "e", "2025-01-10T00:00:00Z", "2025-02-10T00:00:00Z")])
        try g.account([sandbox])
        let p = try g.points("from=2025-01-01&to=2025-03-01")
        #expect(counts(p["2025-01-01"]) == [3, 0, 3, 0, 0])
        #expect(counts(p["2025-01-10"]) == [5, 0, 2, 0, 0])
        #expect(counts(p["2025-01-20"]) == [6, 0, 1, 0, 0], "the sandbox subscription is another one")
        #expect(counts(p["2025-02-01"]) == [5, 0, 0, 1, 0], "the crossgrade churns nothing")
        #expect(counts(p["2025-02-10"]) == [4, 0, 0, 1, 0])
        #expect(counts(p["2025-02-20"]) == [3, 0, 0, 1, 0])
        #expect(counts(p["2025-03-01"]) == [3, 0, 0, 0, 0])
        #expect(p["2025-03-01"]?["activeByStore"] as? [String: Int] == ["appStore": 3, "googlePlay": 0, "stripe": 0])
        #expect(p.values.map { $0["new"] as? Int ?? 0 }.reduce(0, +) == 6)
    }

    /// ISO weeks start on Monday; a week or month cut by the range, or by today, is one point
    /// over its days there: its start the first of them, its sums over them, its levels those
    /// of the last.
    @Test(arguments: MetricsBackend.all)
    func e37WeeksAndMonthsWithCuts(_ backend: MetricsBackend) throws {
        let g = try backend.gateway()
        g.h.clock.set(G.at("2026-03-05T10:00:00Z"))
        try g.account([G.period(.appStore, "w1", of: "w", "2026-01-08T00:00:00Z", "2026-01-14T00:00:00Z")])
        try g.account([G.period(.appStore, "v1", of: "v", "2026-01-09T00:00:00Z", "2026-06-09T00:00:00Z")])
        // 2026-01-07 is a Wednesday: the first week is cut to Wed–Sun.
        let weeks = try g.metrics("from=2026-01-07&to=2026-01-20&interval=week")
        #expect(weeks.status == 200)
        let w = try #require(weeks.json["points"] as? [[String: Any]])
        #expect(w.map { $0["start"] as? String } == ["2026-01-07", "2026-01-12", "2026-01-19"])
        #expect(counts(w[0]) == [2, 0, 2, 0, 0])
        #expect(counts(w[1]) == [1, 0, 0, 1, 0], "churned on Wednesday the 14th, summed into its week")
        #expect(weeks.json["from"] as? String == "2026-01-07" && weeks.json["interval"] as? String == "week")
        // Months, the last cut by today (asOf 2026-03-05); `to` is answered as asked.
        let months = try g.metrics("from=2026-01-10&to=2026-12-31&interval=month")
        let m = try #require(months.json["points"] as? [[String: Any]])
        #expect(m.map { $0["start"] as? String } == ["2026-01-10", "2026-02-01", "2026-03-01"])
        #expect(counts(m[0]) == [1, 0, 0, 1, 0], "nothing new counted before the range")
        #expect(counts(m[2]) == [1, 0, 0, 0, 0])
        #expect(months.json["to"] as? String == "2026-12-31")
        #expect((months.json["asOf"] as? String)?.hasPrefix("2026-03-05T10:00:00") == true)
        let days = try #require(try g.metrics("from=2026-03-01&to=2026-03-31").json["points"] as? [[String: Any]])
        #expect(days.last?["start"] as? String == "2026-03-05", "days after today are not answered")
        let future = try g.metrics("from=2026-04-01&to=2026-04-30")
        #expect(future.status == 200 && (future.json["points"] as? [Any])?.isEmpty == true)
    }

    /// The query's limits: 400 for what reports.md refuses, 404 for an unknown publication, 403
    /// for an editor of another publication; at most 3,660 days counting both ends.
    @Test(arguments: MetricsBackend.all)
    func e37QueryLimits(_ backend: MetricsBackend) throws {
        let g = try backend.gateway()
        for bad in ["to=2025-01-01", "from=2025-01-01", "from=2025-1-01&to=2025-02-01", "from=2025-02-30&to=2025-03-01",
                    "from=2025-03-01&to=2025-02-01", "from=2015-01-01&to=2025-01-09", "from=2025-01-01&to=2025-01-02&interval=year",
                    "from=2025-01-01&to=2025-01-02&format=xml", "from=2025-01-01&from=2025-01-01&to=2025-01-02",
                    "from=2025-01-01T00:00:00Z&to=2025-01-02"] {
            let response = try g.metrics(bad)
            #expect(response.status == 400, "\(bad): \(response.status) \(response.text)")
            #expect(response.json["error"] != nil, "\(bad)")
        }
        // 2015-01-01 … 2025-01-07 is 3,660 days counting both ends.
        #expect(try g.metrics("from=2015-01-01&to=2025-01-07").status == 200)
        #expect(try g.metrics("from=2015-01-01&to=2025-01-08").status == 400)
        #expect(try g.metrics("from=2025-01-01&to=2025-01-02", publication: "nope").status == 404)
        let weeklyEditor = try g.h.createKey(#"{"role":"editor","publications":["weekly"]}"#)
        let monthlyEditor = try g.h.createKey(#"{"role":"editor","publications":["monthly"]}"#)
        #expect(try g.metrics("from=2025-01-01&to=2025-01-02", as: weeklyEditor.secret).status == 403)
        #expect(try g.metrics("from=2025-01-01&to=2025-01-02", as: monthlyEditor.secret).status == 200)
        #expect(try g.h.client.get("/v1/publications/monthly/metrics?from=2025-01-01&to=2025-01-02").status == 401)
    }

    /// The CSV form (decision 90) and the chart carry the same series.
    @Test(arguments: MetricsBackend.all)
    func e37CSVAndChart(_ backend: MetricsBackend) throws {
        let g = try backend.gateway()
        try g.account([G.period(.googlePlay, "c1", of: "gpa.c", "2025-01-02T00:00:00Z", "2025-01-03T00:00:00Z")])
        let csv = try g.metrics("from=2025-01-01&to=2025-01-03&format=csv")
        #expect(csv.status == 200)
        #expect(csv.header("Content-Type")?.hasPrefix("text/csv") == true)
        #expect(csv.text == "start,active,activeAppStore,activeGooglePlay,activeStripe,trials,new,churned,reactivated\r\n"
            + "2025-01-01,0,0,0,0,0,0,0,0\r\n2025-01-02,1,0,1,0,0,1,0,0\r\n2025-01-03,0,0,0,0,0,0,1,0\r\n")
        let svg = try g.h.client.get("/v1/publications/monthly/metrics.svg?from=2025-01-01&to=2025-03-31&interval=week",
                                     as: H.adminKey)
        #expect(svg.status == 200)
        #expect(svg.header("Content-Type")?.hasPrefix("image/svg+xml") == true)
        for line in ["active", "appStore", "googlePlay", "stripe", "trials"] {
            #expect(svg.text.contains("class=\"line \(line)\""), "\(line)")
        }
        #expect(svg.text.contains("The Monthly: subscriptions by week"))
        #expect(try g.h.client.get("/v1/publications/monthly/metrics.svg?from=2025-01-01", as: H.adminKey).status == 400)
    }

    /// E35 keeps a deleted account's store transactions (decision 89): E37 counts store
    /// subscriptions, so one whose facts no account owns any more stays in the series, and a
    /// rebuild from the facts gives the same series as the rows kept at ingest.
    @Test(arguments: MetricsBackend.all)
    func e37RebuildGivesTheSeriesKeptAtIngest(_ backend: MetricsBackend) throws {
        let g = try backend.gateway()
        try g.account([G.period(.appStore, "k1", of: "k", "2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z")])
        try g.account([G.period(.stripe, "k2", of: "sub_k", "2025-01-05T00:00:00Z", "2025-01-12T00:00:00Z", trial: true),
                       G.period(.stripe, "k3", of: "sub_k", "2025-01-12T00:00:00Z", "2025-02-12T00:00:00Z")])
        let before = try g.metrics("from=2025-01-01&to=2025-03-01&format=csv").text
        #expect(try g.h.runtime.core.store.rebuildSubscriberIntervals(batch: 1) == 2)
        #expect(try g.metrics("from=2025-01-01&to=2025-03-01&format=csv").text == before)
    }
}
