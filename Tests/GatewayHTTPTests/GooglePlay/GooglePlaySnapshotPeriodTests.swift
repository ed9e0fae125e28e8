import Entitle
import Foundation
import GooglePlaySimulator
import Testing
import Wire
import GatewayTesting

/// E25's "otherwise": with the Orders API refusing the gateway (403 `PERMISSION_DENIED`, a service
/// account without the financial-data permission), every scenario step driven through the
/// simulator and Google's pushes, periods built from the subscription snapshots the gateway
/// fetched. The simulator's order periods are what the Orders API would have reported: where the
/// gateway saw every change, the built periods must equal them. Issues as in
/// `GooglePlayLifecycleTests` (the reader subscribes on March 1st for 30 days).
@Suite struct GooglePlaySnapshotPeriodTests {
    let life = GooglePlayLifecycleTests()

    func subscribed() throws -> (GooglePlayGateway, (id: String, token: String)) { try life.subscribed(ordersRefused: true) }

    /// The account's stored transactions, oldest first.
    func stored(_ g: GooglePlayGateway, _ reader: (id: String, token: String)) throws -> [Transaction] {
        try g.h.runtime.core.store.accountFacts(reader.id).transactions.sorted { $0.purchaseDate < $1.purchaseDate }
    }

    /// Every stored order has the service period Google's Orders API would have reported.
    func expectGooglesPeriods(_ g: GooglePlayGateway, _ reader: (id: String, token: String), count: Int,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let transactions = try stored(g, reader)
        #expect(transactions.count == count, sourceLocation: sourceLocation)
        for t in transactions {
            let order = try #require(g.simulator.order(t.transactionId), sourceLocation: sourceLocation)
            #expect(t.purchaseDate == order.periodStart && t.expiresDate == order.periodEnd,
                    "\(t.transactionId): \(t.purchaseDate.rfc3339)–\(t.expiresDate?.rfc3339 ?? "-"), Google \(order.periodStart.rfc3339)–\(order.periodEnd.rfc3339)",
                    sourceLocation: sourceLocation)
        }
    }

    /// `/metrics`' count of periods built from snapshots.
    func builtPeriods(_ g: GooglePlayGateway) throws -> Int {
        let line = try g.h.client.get("/metrics").text.split(separator: "\n")
            .first { $0.hasPrefix("issue_gateway_googleplay_snapshot_periods_total ") }
        return try #require(line.flatMap { Int($0.split(separator: " ").last ?? "") })
    }

    @Test func e25BuyRenewRenewEachSeenByANotification() throws {
        let (g, reader) = try subscribed()
        g.advance(days: 30)
        try life.take(g, try g.simulator.renew("tok-1"))
        g.advance(days: 30)
        try life.take(g, try g.simulator.renew("tok-1"))
        g.advance(days: 16)                                                    // May 16th
        #expect(try g.entitled(reader) == ["p1", "p2", "p3", "p4b", "p5"])
        #expect(try life.state(g, reader) == "active")
        try expectGooglesPeriods(g, reader, count: 3)
        #expect(try builtPeriods(g) >= 3)
        #expect(g.simulator.apiRequests.contains { $0.hasPrefix("orders") })
        // History and explanations read the built periods like any other.
        let renewal = try #require(g.simulator.subscription("tok-1")?.orderIds.last)
        let history = try g.h.client.get("/v1/accounts/\(reader.id)/history", as: reader.token)
        #expect(history.text.contains(renewal) && history.objects("events").contains { $0["source"] as? String == "rtdn" })
        let explained = try g.h.client.get("/v1/accounts/\(reader.id)/publications/play/issues/p4b/explanation",
                                           as: GatewayHarness.adminKey)
        #expect(explained.status == 200 && explained.json["entitled"] as? Bool == true, "\(explained.text)")
    }

    /// A renewal the gateway never saw as the latest (its notification never came) has no period of
    /// its own; the next one seen starts where the last one seen ended, so nothing Google served is lost.
    @Test func e25ARenewalNeverSeenIsCoveredByTheNextOneSeen() throws {
        let (g, reader) = try subscribed()
        g.advance(days: 30)
        try g.simulator.renew("tok-1")                                         // no push delivered
        g.advance(days: 30)
        try life.take(g, try g.simulator.renew("tok-1"))
        g.advance(days: 16)                                                    // May 16th
        #expect(try g.entitled(reader) == ["p1", "p2", "p3", "p4b", "p5"])
        let ids = try #require(g.simulator.subscription("tok-1")?.orderIds)
        let transactions = try stored(g, reader)
        #expect(transactions.map(\.transactionId) == [ids[0], ids[2]])
        #expect(transactions.last?.purchaseDate == g.simulator.order(ids[1])?.periodStart)
        #expect(transactions.last?.expiresDate == g.simulator.order(ids[2])?.periodEnd)
    }

    @Test func e8GraceThenRecoveryKeepsTheRenewalDate() throws {
        let (g, reader) = try subscribed()
        g.advance(days: 30)                                                    // March 31st: the renewal fails
        try life.take(g, try g.simulator.grace("tok-1", days: 3))
        #expect(try life.state(g, reader) == "gracePeriod")
        g.advance(days: 1)
        // Google moves `expiryTime` daily in grace: the grace grows, the paid period does not.
        try life.take(g, try g.simulator.grace("tok-1", days: 3))
        #expect(try stored(g, reader).first?.expiresDate == Instant(rfc3339: "2026-03-31T00:00:00Z"))
        g.advance(days: 1)
        try life.take(g, try g.simulator.recover("tok-1"))
        #expect(try life.state(g, reader) == "active")
        g.advance(days: 14)                                                    // April 16th
        #expect(try g.entitled(reader) == ["p1", "p2", "p3"])
        try expectGooglesPeriods(g, reader, count: 2)
    }

    @Test func e9OnHoldEntitlesNothingUntilTheRecoveryUnlocks() throws {
        let (g, reader) = try subscribed()
        g.advance(days: 30)
        try life.take(g, try g.simulator.hold("tok-1"))
        #expect(try life.state(g, reader) == "billingRetry")
        g.advance(days: 14)                                                    // April 14th
        #expect(try g.entitled(reader) == ["p1", "p2"])
        g.advance(days: 2)                                                     // April 16th: paid again
        try life.take(g, try g.simulator.recover("tok-1"))
        // The recovered period starts when the gateway saw the subscription serve again, and
        // unlocks p3 (April 15th, E13).
        #expect(try stored(g, reader).last?.purchaseDate == Instant(rfc3339: "2026-04-16T00:00:00Z"))
        #expect(try g.entitled(reader) == ["p1", "p2", "p3"])
        try expectGooglesPeriods(g, reader, count: 2)
    }

    @Test func e27APauseEntitlesNothingAndTheResumeUnlocks() throws {
        let (g, reader) = try subscribed()
        g.advance(days: 30)                                                    // March 31st
        try life.take(g, try g.simulator.pause("tok-1", resumeAt: Instant(rfc3339: "2026-05-01T00:00:00Z")!))
        #expect(try life.state(g, reader) == "paused")
        g.advance(days: 16)
        #expect(try g.entitled(reader) == ["p1", "p2"])
        g.advance(days: 15)                                                    // May 1st
        try life.take(g, try g.simulator.resume("tok-1"))
        g.advance(days: 15)
        #expect(try life.state(g, reader) == "active")
        #expect(try g.entitled(reader) == ["p1", "p2", "p4b", "p5"])
        try expectGooglesPeriods(g, reader, count: 2)
    }

    @Test func e19CancelServesUntilExpiryThenExpires() throws {
        let (g, reader) = try subscribed()
        g.advance(days: 10)
        try life.take(g, try g.simulator.cancel("tok-1"))
        #expect(try life.state(g, reader) == "activeAutoRenewOff")
        g.advance(days: 20)
        try life.take(g, try g.simulator.expire("tok-1"))
        g.advance(days: 16)
        #expect(try life.state(g, reader) == "expiredVoluntary")
        #expect(try g.entitled(reader) == ["p1", "p2"])
        try expectGooglesPeriods(g, reader, count: 1)
    }

    /// E25 → E7: the replaced token is cut at the new token's `startTime`, never counted twice.
    @Test func e7AnUpgradeWithALinkedTokenCutsTheReplacedToken() throws {
        let (g, reader) = try subscribed()
        g.advance(days: 10)                                                    // March 11th
        try life.take(g, try g.simulator.buy(token: "tok-2", productId: "premium", account: GooglePlayLifecycleTests.uuid,
                                             linkedTo: "tok-1"))
        let subscriptions = try g.subscriptions(reader)
        #expect(subscriptions.count == 1 && subscriptions.first?["originalTransactionId"] as? String == "tok-1")
        #expect(subscriptions.first?["productId"] as? String == "premium")
        let transactions = try stored(g, reader)
        #expect(transactions.count == 2)
        #expect(transactions.first?.isUpgraded == true && transactions.first?.revocationDate == Instant(rfc3339: "2026-03-11T00:00:00Z"))
        try expectGooglesPeriods(g, reader, count: 2)
        g.advance(days: 35)                                                    // April 15th: tok-2 ended on April 10th
        #expect(try g.entitled(reader) == ["p1", "p2"])
    }

    /// E24/E25: a revoke without a voided order cuts at the notification's event time; one no
    /// notification brought, at the instant the gateway first saw the revoked state. Both are kept:
    /// later looks, through the Orders API or the snapshots, do not move the cut.
    @Test(arguments: [true, false], [true, false])
    func e24ARevokeCutsAtTheNotificationElseWhereTheGatewayFirstSawIt(_ notified: Bool, _ ordersRefused: Bool) throws {
        let (g, reader) = try life.subscribed(ordersRefused: ordersRefused)
        g.advance(days: 10)                                                    // March 11th
        let revoked = try g.simulator.revoke("tok-1")
        if notified { try life.take(g, revoked) }
        g.advance(days: 2)                                                     // March 13th: a refresh finds it
        #expect(try g.h.client.post("/v1/accounts/\(reader.id)/refresh", as: reader.token).status == 200)
        g.advance(days: 1)
        g.simulator.refusesOrders = !ordersRefused                             // the other path answers
        #expect(try g.h.client.post("/v1/accounts/\(reader.id)/refresh", as: reader.token).status == 200)
        let cut = try #require(try stored(g, reader).first)
        #expect(cut.revocationDate == Instant(rfc3339: notified ? "2026-03-11T00:00:00Z" : "2026-03-13T00:00:00Z"))
        #expect(cut.revocationKind == .revokedWithRefund)
        g.advance(days: 5)
        // p1 was unlocked before the cut and stays; p2 (March 15th) came after it.
        #expect(try g.entitled(reader) == ["p1"])
        #expect(try life.state(g, reader) == "expiredOther")
    }

    /// E24: a voided order is void whatever path its period came from.
    @Test func e24ARefundedOrderIsNeverBought() throws {
        let (g, reader) = try subscribed()
        g.advance(days: 20)
        let orderId = try #require(g.simulator.subscription("tok-1")?.orderIds.first)
        try life.take(g, try g.simulator.refund(orderId: orderId))
        #expect(try g.entitled(reader).isEmpty)
        #expect(try life.state(g, reader) == "revoked")
    }

    /// E24/E1: a void stays when the Orders API refuses: the renewal's push and a refresh build the
    /// refunded order again from the snapshots, without the refund Google keeps elsewhere.
    @Test func e24ARefundSurvivesTheNextFetchesWhenTheOrdersAPIRefuses() throws {
        let (g, reader) = try subscribed()
        g.advance(days: 20)                                                    // March 21st
        let orderId = try #require(g.simulator.subscription("tok-1")?.orderIds.first)
        try life.take(g, try g.simulator.refund(orderId: orderId))
        g.advance(days: 10)                                                    // March 31st
        try life.take(g, try g.simulator.renew("tok-1"))
        g.advance(days: 1)
        #expect(try g.h.client.post("/v1/accounts/\(reader.id)/refresh", as: reader.token).status == 200)
        let refunded = try #require(try stored(g, reader).first { $0.transactionId == orderId })
        #expect(refunded.isVoid && refunded.revocationDate == Instant(rfc3339: "2026-03-21T00:00:00Z"))
        // p1 (February 15th) was unlocked by the refunded order alone; p2 (March 15th) is the
        // renewal's, a period after a gap (E13).
        #expect(try g.entitled(reader) == ["p2"])
    }

    /// E25: a period the Orders API reported stays when it starts refusing; the orders the gateway
    /// saw no snapshot of are not rebuilt differently from the snapshots it has.
    @Test func e25ReportedPeriodsStayWhenTheOrdersAPIStartsRefusing() throws {
        let (g, reader) = try life.subscribed()
        g.advance(days: 30)
        try g.simulator.renew("tok-1")                                         // no push delivered
        g.advance(days: 30)
        try g.simulator.renew("tok-1")                                         // no push delivered
        g.advance(days: 2)                                                     // May 2nd
        #expect(try g.h.client.post("/v1/accounts/\(reader.id)/refresh", as: reader.token).status == 200)
        try expectGooglesPeriods(g, reader, count: 3)
        g.simulator.refusesOrders = true
        g.advance(days: 1)
        #expect(try g.h.client.post("/v1/accounts/\(reader.id)/refresh", as: reader.token).status == 200)
        try expectGooglesPeriods(g, reader, count: 3)
        #expect(try stored(g, reader).allSatisfy { !$0.periodBuilt })
    }

    /// The Orders API unreachable is never a refusal, even while the Developer API answers: the push
    /// fails (503, Pub/Sub redelivers) and nothing is stored, no snapshot either; the redelivery is
    /// taken.
    @Test func theOrdersAPIUnreachableStillFailsThePush() throws {
        let (g, reader) = try subscribed()
        g.advance(days: 30)
        let renewed = try g.simulator.renew("tok-1")
        let kept = { try g.h.runtime.core.store.playSnapshots(packageName: g.simulator.packageName, purchaseToken: "tok-1", limit: 100) }
        let snapshotsBefore = try kept()
        g.simulator.failNextOrderCalls(4, status: 503)                        // every attempt the client makes
        #expect(try g.push(renewed).status == 503)
        #expect(g.simulator.apiRequests.last?.hasPrefix("orders") == true)
        #expect(try stored(g, reader).count == 1 && kept() == snapshotsBefore)
        try life.take(g, renewed)
        #expect(try stored(g, reader).count == 2)
    }
}
