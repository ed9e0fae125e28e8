@testable import GooglePlayKit
import Testing
import Wire

/// E25's "otherwise", on hand-made snapshot histories: each order seen as `latestSuccessfulOrderId`
/// runs from the end of the order before it (the token's `startTime` for the first; after a pause
/// or a hold the gateway saw, the instant it saw the subscription serve again) to the latest
/// `expiryTime` seen while it was the latest in a state that serves (active, canceled).
@Suite struct PlaySnapshotPeriodsTests {
    static let base = "GPA.3300-0000-0001-00001"
    static let start = at("2026-03-01T00:00:00Z")

    static func at(_ text: String) -> Instant { Instant(rfc3339: text)! }

    /// A snapshot seen at `seen`: `order` nil is the first order, k is renewal k.
    static func seen(_ seen: String, _ state: PlaySubscriptionState, order: Int?, expiry: String,
                     cancellation: PlayCancellation? = nil, revokedAt: String? = nil) -> PlaySnapshot {
        PlaySnapshot(observedAt: at(seen), state: state, latestOrderId: order.map { "\(base)..\($0)" } ?? base,
                     expiryTime: at(expiry), startTime: start, productId: "monthly", cancellation: cancellation,
                     revokedAt: revokedAt.map(at))
    }

    static func periods(_ history: [PlaySnapshot], answered: [PlayOrder] = []) -> [String] {
        PlaySnapshotPeriods.orders(token: "tok-1", history: history, answered: answered).map { order in
            "\(order.orderId.replacingOccurrences(of: base, with: "O")) \(text(order.servicePeriodStart)) \(text(order.servicePeriodEnd))"
        }
    }

    static func text(_ instant: Instant?) -> String { instant?.rfc3339.replacingOccurrences(of: ".000Z", with: "Z") ?? "-" }

    @Test func e25BuyRenewRenewRunsEachOrderFromTheEndOfTheOneBefore() {
        let history = [
            Self.seen("2026-03-01T00:00:00Z", .active, order: nil, expiry: "2026-03-31T00:00:00Z"),
            // A renewal charged a little early: the period still starts where the paid one ended.
            Self.seen("2026-03-30T12:00:00Z", .active, order: 0, expiry: "2026-04-30T00:00:00Z"),
            Self.seen("2026-04-30T00:00:00Z", .active, order: 1, expiry: "2026-05-30T00:00:00Z"),
        ]
        #expect(Self.periods(history) == [
            "O 2026-03-01T00:00:00Z 2026-03-31T00:00:00Z",
            "O..0 2026-03-31T00:00:00Z 2026-04-30T00:00:00Z",
            "O..1 2026-04-30T00:00:00Z 2026-05-30T00:00:00Z",
        ])
        // The order the snapshots arrive in does not matter; they are read by when they were seen.
        #expect(Self.periods(history.reversed()) == Self.periods(history))
        let built = PlaySnapshotPeriods.orders(token: "tok-1", history: history, answered: [])
        #expect(built.allSatisfy { $0.periodFromSnapshots && $0.state == .processed && $0.productId == "monthly" && $0.purchaseToken == "tok-1" })
    }

    @Test func e25TheLatestExpirySeenEndsAnOrderAndACancellationStillServes() {
        #expect(Self.periods([
            Self.seen("2026-03-01T00:00:00Z", .active, order: nil, expiry: "2026-03-31T00:00:00Z"),
            // Google deferred the renewal (DEFERRED): only `expiryTime` moves.
            Self.seen("2026-03-10T00:00:00Z", .active, order: nil, expiry: "2026-04-07T00:00:00Z"),
            Self.seen("2026-03-12T00:00:00Z", .canceled, order: nil, expiry: "2026-04-07T00:00:00Z", cancellation: .user),
            Self.seen("2026-04-07T00:00:00Z", .expired, order: nil, expiry: "2026-04-07T00:00:00Z", cancellation: .user),
        ]) == ["O 2026-03-01T00:00:00Z 2026-04-07T00:00:00Z"])
    }

    /// A renewal the gateway never saw as the latest has no period of its own; the next one it saw
    /// starts where the last one before it ended, so the time Google served is not lost.
    @Test func e25AHoleIsCoveredByTheNextOrderSeen() {
        #expect(Self.periods([
            Self.seen("2026-03-01T00:00:00Z", .active, order: nil, expiry: "2026-03-31T00:00:00Z"),
            Self.seen("2026-05-02T00:00:00Z", .active, order: 1, expiry: "2026-05-30T00:00:00Z"),
        ]) == ["O 2026-03-01T00:00:00Z 2026-03-31T00:00:00Z", "O..1 2026-03-31T00:00:00Z 2026-05-30T00:00:00Z"])
        // First seen at a renewal: it runs from the token's start.
        #expect(Self.periods([Self.seen("2026-04-10T00:00:00Z", .active, order: 0, expiry: "2026-04-30T00:00:00Z")])
                == ["O..0 2026-03-01T00:00:00Z 2026-04-30T00:00:00Z"])
    }

    /// E8: `expiryTime` while in grace is no paid end (it is the renewal info's grace); a recovery in
    /// grace keeps the renewal date, so the next order starts at the paid end.
    @Test func e8GraceNeverEndsAPeriodAndTheRecoveryStartsAtThePaidEnd() {
        #expect(Self.periods([
            Self.seen("2026-03-01T00:00:00Z", .active, order: nil, expiry: "2026-03-31T00:00:00Z"),
            Self.seen("2026-03-31T00:00:00Z", .inGracePeriod, order: nil, expiry: "2026-04-01T00:00:00Z"),
            Self.seen("2026-04-01T00:00:00Z", .inGracePeriod, order: nil, expiry: "2026-04-03T00:00:00Z"),
            Self.seen("2026-04-02T00:00:00Z", .active, order: 0, expiry: "2026-04-30T00:00:00Z"),
        ]) == ["O 2026-03-01T00:00:00Z 2026-03-31T00:00:00Z", "O..0 2026-03-31T00:00:00Z 2026-04-30T00:00:00Z"])
    }

    /// E9, E27: after a hold or a pause the gateway saw, the next order starts when the gateway saw
    /// the subscription serve again; one it did not see is not a break.
    @Test(arguments: [PlaySubscriptionState.onHold, .paused])
    func e27AfterABreakTheGatewaySawTheNextOrderStartsWhenItServesAgain(_ pause: PlaySubscriptionState) {
        let before = Self.seen("2026-03-01T00:00:00Z", .active, order: nil, expiry: "2026-03-31T00:00:00Z")
        let broken = Self.seen("2026-03-31T00:00:00Z", pause, order: nil, expiry: "2026-03-31T00:00:00Z")
        let again = Self.seen("2026-04-16T00:00:00Z", .active, order: 0, expiry: "2026-05-16T00:00:00Z")
        #expect(Self.periods([before, broken, again])
                == ["O 2026-03-01T00:00:00Z 2026-03-31T00:00:00Z", "O..0 2026-04-16T00:00:00Z 2026-05-16T00:00:00Z"])
        #expect(Self.periods([before, again])
                == ["O 2026-03-01T00:00:00Z 2026-03-31T00:00:00Z", "O..0 2026-03-31T00:00:00Z 2026-05-16T00:00:00Z"])
    }

    /// An order seen only in states that do not serve has no end the snapshots prove.
    @Test func e25AnOrderNeverSeenServingEntitlesNothingByItself() {
        #expect(Self.periods([
            Self.seen("2026-04-20T00:00:00Z", .onHold, order: 0, expiry: "2026-04-30T00:00:00Z"),
            Self.seen("2026-05-05T00:00:00Z", .inGracePeriod, order: 0, expiry: "2026-05-07T00:00:00Z"),
        ]).isEmpty)
        // Nor does a snapshot naming an earlier order than one already seen (arrived out of order).
        #expect(Self.periods([
            Self.seen("2026-03-01T00:00:00Z", .active, order: 1, expiry: "2026-03-31T00:00:00Z"),
            Self.seen("2026-03-02T00:00:00Z", .active, order: 0, expiry: "2026-06-01T00:00:00Z"),
        ]) == ["O..1 2026-03-01T00:00:00Z 2026-03-31T00:00:00Z"])
    }

    /// Orders the Orders API answered keep their periods and are never built; the next order built
    /// runs from the end of the answered one before it.
    @Test func e25AnsweredOrdersKeepTheirPeriods() throws {
        let answered = try PlayOrder.parse(Array("""
            {"orderId":"\(Self.base)","state":"PROCESSED","lineItems":[{"productId":"monthly","subscriptionDetails":{
             "servicePeriodStartTime":"2026-03-01T00:00:00Z","servicePeriodEndTime":"2026-04-02T00:00:00Z"}}]}
            """.utf8))
        #expect(Self.periods([
            Self.seen("2026-03-01T00:00:00Z", .active, order: nil, expiry: "2026-03-31T00:00:00Z"),
            Self.seen("2026-04-02T00:00:00Z", .active, order: 0, expiry: "2026-05-02T00:00:00Z"),
        ], answered: [answered]) == ["O..0 2026-04-02T00:00:00Z 2026-05-02T00:00:00Z"])
    }

    /// E24/E25: a revoke cuts at the notification's event time, else where the gateway first saw it.
    @Test func e24ARevokeCutsAtTheNotificationElseAtTheFirstSighting() {
        let active = Self.seen("2026-03-01T00:00:00Z", .active, order: nil, expiry: "2026-03-31T00:00:00Z")
        let firstSeen = Self.seen("2026-03-13T00:00:00Z", .expired, order: nil, expiry: "2026-03-11T00:00:00Z", cancellation: .developer)
        var later = firstSeen
        later.observedAt = Self.at("2026-03-20T00:00:00Z")
        #expect(PlaySnapshotPeriods.revocation([active, later, firstSeen]) == Self.at("2026-03-13T00:00:00Z"))
        let notified = Self.seen("2026-03-11T00:00:05Z", .expired, order: nil, expiry: "2026-03-11T00:00:00Z",
                                 cancellation: .developer, revokedAt: "2026-03-11T00:00:00Z")
        #expect(PlaySnapshotPeriods.revocation([active, later, notified]) == Self.at("2026-03-11T00:00:00Z"))
        // Expired by the system (billing) or the reader is no revoke.
        #expect(PlaySnapshotPeriods.revocation([
            active, Self.seen("2026-03-31T00:00:00Z", .expired, order: nil, expiry: "2026-03-31T00:00:00Z", cancellation: .system),
        ]) == nil)
    }

    /// Which of Google's answers mean the Orders API refuses (periods from snapshots) and which that
    /// it could not be asked (the call fails, 503).
    @Test func e25RefusalsAreGooglesNoNotItsSilence() {
        #expect(GooglePlayError.unauthorized("PERMISSION_DENIED").isRefusal)
        #expect(GooglePlayError.rejected(httpStatus: 400, reason: "FAILED_PRECONDITION").isRefusal)
        #expect(GooglePlayError.notFound.isRefusal)
        #expect(!GooglePlayError.unauthorized("userRateLimitExceeded").isRefusal)
        #expect(!GooglePlayError.unavailable("HTTP 503").isRefusal)
        #expect(!GooglePlayError.malformedResponse("no orders").isRefusal)
        #expect(!GooglePlayError.rejected(httpStatus: 501, reason: nil).isRefusal)
    }
}
