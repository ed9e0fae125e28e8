import Foundation
import Wire

/// E25's "otherwise": service periods built from the subscription snapshots the gateway fetched,
/// for a token's orders the Orders API did not answer (it refused the gateway, or does not know the
/// order). Orders it answered keep their reported periods and are never built. Pure.
///
/// An order seen as `latestSuccessfulOrderId` runs from the end of the order before it (the token's
/// `startTime` for the first; after a pause or a hold the gateway saw, the instant it saw the
/// subscription serve again, E27/E9) to the latest `expiryTime` seen while it was the latest in a
/// state that serves (active, canceled). `expiryTime` while `IN_GRACE_PERIOD` is never a period's
/// end: it is the renewal info's grace (E8), which starts where the paid periods end. A renewal the
/// gateway never saw as the latest (a hole) has no period of its own: the next order it saw starts
/// where the last one before it ended, so the time Google served is still covered. An order never
/// seen in a state that serves has no end the snapshots prove, and entitles nothing by itself.
public enum PlaySnapshotPeriods {
    /// The orders of `token` that `history` (its snapshots, in any order) shows and `answered` (the
    /// Orders API's answer, possibly empty) lacks, each with the period E25 builds: charged
    /// (`PROCESSED`), offer unknown, marked `periodFromSnapshots`.
    public static func orders(token: String, history: [PlaySnapshot], answered: [PlayOrder]) -> [PlayOrder] {
        let answeredIds = Set(answered.map(\.orderId))
        let answeredEnds = answered.filter { PlayFacts.chargedStates.contains($0.state) }.compactMap { order in
            order.servicePeriodEnd.map { (position: PlayOrder.position(order.orderId), end: $0) }
        }
        // Oldest first; snapshots seen at the same instant keep the order they were given in.
        let snapshots = history.enumerated().sorted {
            ($0.element.observedAt, $0.offset) < ($1.element.observedAt, $1.offset)
        }.map(\.element)
        let startTime = snapshots.lazy.compactMap(\.startTime).last
        var seen: [SeenOrder] = []
        var interrupted = false
        for snapshot in snapshots {
            // E27, E9: a pause or a hold the gateway saw ends the run of paid periods.
            if snapshot.state == .paused || snapshot.state == .onHold { interrupted = true }
            guard let id = snapshot.latestOrderId else { continue }
            let position = PlayOrder.position(id)
            if seen.last?.orderId != id {
                // Google never goes back to an earlier order: a snapshot naming one says nothing new.
                guard !seen.contains(where: { $0.orderId == id || $0.position > position }) else { continue }
                seen.append(SeenOrder(orderId: id, position: position, productId: snapshot.productId))
            }
            guard snapshot.state == .active || snapshot.state == .canceled else { continue }
            let last = seen.count - 1
            if seen[last].start == nil {
                let before = (seen[..<last].compactMap(\.end) + answeredEnds.filter { $0.position < position }.map(\.end)).max()
                seen[last].start = interrupted ? snapshot.observedAt : before ?? startTime ?? snapshot.observedAt
            }
            interrupted = false
            if let expiry = snapshot.expiryTime { seen[last].end = max(seen[last].end ?? expiry, expiry) }
        }
        return seen.compactMap { order in
            guard !answeredIds.contains(order.orderId), let start = order.start, let end = order.end, start < end else { return nil }
            return PlayOrder(orderId: order.orderId, purchaseToken: token, state: .processed, createTime: nil,
                             productId: order.productId, servicePeriodStart: start, servicePeriodEnd: end, offerPhase: nil,
                             refundTime: nil, refundIsChargeback: false, periodFromSnapshots: true)
        }
    }

    /// E24/E25: where a revoke without a voided order cuts, from a token's snapshots: the
    /// `SUBSCRIPTION_REVOKED` notification's event time, else the instant the gateway first saw the
    /// revoked state; nil when it saw neither.
    public static func revocation(_ history: [PlaySnapshot]) -> Instant? {
        history.compactMap(\.revokedAt).min() ?? history.filter(\.isRevoked).map(\.observedAt).min()
    }

    /// One order as the snapshots showed it so far.
    private struct SeenOrder {
        let orderId: String
        let position: Int
        let productId: String?
        var start: Instant?
        var end: Instant?
    }
}
