import Foundation
import Wire

/// The scenario steps of a Play subscription's life (googleplay.md "Lifecycle"), each changing the
/// simulator's purchases as Google would at the simulator's clock and returning the notification
/// Google would send (`SimulatedNotification`).
extension GooglePlaySimulator {
    public static let month: Int64 = 30 * 86_400

    /// A new subscription token: its first order serves `[now, now + period)` (a free trial's when
    /// `trial`); `linkedTo` makes it replace that token (upgrade, downgrade, re-signup before
    /// expiry), which Google then reports expired with a replacement cancellation.
    @discardableResult
    public func buy(token: String, productId: String, basePlanId: String = "p1m", account: String? = nil,
                    periodSeconds: Int64 = month, trial: Bool = false, test: Bool = false,
                    linkedTo: String? = nil) throws(Failure) -> SimulatedNotification {
        try state.withLock { (state: inout State) throws(Failure) in
            guard state.subscriptions[token] == nil else { throw .invalid("token \(token) exists") }
            if let linkedTo {
                guard state.subscriptions[linkedTo] != nil else { throw .unknownToken(linkedTo) }
                state.subscriptions[linkedTo]?.state = "SUBSCRIPTION_STATE_EXPIRED"
                state.subscriptions[linkedTo]?.cancellation = "replacementCancellation"
                state.subscriptions[linkedTo]?.autoRenew = false
            }
            state.orderCount += 1
            let orderId = String(format: "GPA.3300-%04d-%04d-%05d", state.orderCount / 10_000, state.orderCount % 10_000,
                                 state.orderCount)
            let now = state.now, end = now.adding(seconds: periodSeconds)
            state.orders[orderId] = SimulatedOrder(orderId: orderId, token: token, productId: productId, basePlanId: basePlanId,
                                                   createTime: now, periodStart: now, periodEnd: end,
                                                   offerPhase: trial ? "freeTrialDetails" : "baseDetails")
            state.subscriptions[token] = SimulatedSubscription(
                token: token, productId: productId, basePlanId: basePlanId, startTime: now, state: "SUBSCRIPTION_STATE_ACTIVE",
                expiryTime: end, linkedPurchaseToken: linkedTo, obfuscatedAccountId: account, isTest: test,
                orderIds: [orderId], paidEnd: end, periodSeconds: periodSeconds)
        }
        return notification(subscription: 4, token: token)
    }

    /// A renewal charged at the paid end: order `base..k` serves the next period.
    @discardableResult
    public func renew(_ token: String) throws(Failure) -> SimulatedNotification {
        try charge(token, from: { $0.paidEnd })
        return notification(subscription: 2, token: token)
    }

    /// The renewal failed; Google's grace runs `days` past the paid end (it reports the grace end as
    /// `expiryTime`).
    @discardableResult
    public func grace(_ token: String, days: Int64) throws(Failure) -> SimulatedNotification {
        try change(token) { s in
            s.state = "SUBSCRIPTION_STATE_IN_GRACE_PERIOD"
            s.expiryTime = s.paidEnd?.adding(seconds: days * 86_400)
        }
        return notification(subscription: 6, token: token)
    }

    /// Grace ended without payment: on hold, no access, `expiryTime` back at the paid end.
    @discardableResult
    public func hold(_ token: String) throws(Failure) -> SimulatedNotification {
        try change(token) { s in s.state = "SUBSCRIPTION_STATE_ON_HOLD"; s.expiryTime = s.paidEnd }
        return notification(subscription: 5, token: token)
    }

    /// Payment fixed: from grace the renewal date is kept, from hold the period starts now.
    @discardableResult
    public func recover(_ token: String) throws(Failure) -> SimulatedNotification {
        let fromHold = subscription(token)?.state == "SUBSCRIPTION_STATE_ON_HOLD"
        try charge(token, from: { s in fromHold ? nil : s.paidEnd })
        return notification(subscription: 1, token: token)
    }

    /// Paused at the paid end until `resumeAt` (types 11 then 10 in Google's order; the second is
    /// the one returned).
    @discardableResult
    public func pause(_ token: String, resumeAt: Instant) throws(Failure) -> SimulatedNotification {
        try change(token) { s in s.state = "SUBSCRIPTION_STATE_PAUSED"; s.autoResumeTime = resumeAt }
        return notification(subscription: 10, token: token)
    }

    /// The pause ends: a new period from now.
    @discardableResult
    public func resume(_ token: String) throws(Failure) -> SimulatedNotification {
        try change(token) { s in s.autoResumeTime = nil }
        try charge(token, from: { _ in nil })
        return notification(subscription: 1, token: token)
    }

    /// The reader canceled: served until `expiryTime`, no renewal.
    @discardableResult
    public func cancel(_ token: String) throws(Failure) -> SimulatedNotification {
        try change(token) { s in s.state = "SUBSCRIPTION_STATE_CANCELED"; s.autoRenew = false; s.cancellation = "userInitiatedCancellation" }
        return notification(subscription: 3, token: token)
    }

    /// The subscription ended.
    @discardableResult
    public func expire(_ token: String) throws(Failure) -> SimulatedNotification {
        try change(token) { s in
            s.state = "SUBSCRIPTION_STATE_EXPIRED"; s.autoRenew = false
            if s.cancellation == nil { s.cancellation = "systemInitiatedCancellation" }
        }
        return notification(subscription: 13, token: token)
    }

    /// A refund of one order (a chargeback when `chargeback`): the order is `REFUNDED` and listed
    /// among voided purchases; the subscription itself runs on (Google's refund without revoke).
    @discardableResult
    public func refund(orderId: String, chargeback: Bool = false) throws(Failure) -> SimulatedNotification {
        let token: String = try state.withLock { (state: inout State) throws(Failure) in
            guard var order = state.orders[orderId] else { throw .unknownOrder(orderId) }
            order.state = "REFUNDED"
            order.refundTime = state.now
            order.refundReason = chargeback ? "CHARGEBACK" : "OTHER"
            state.orders[orderId] = order
            state.voided.append(SimulatedVoidedPurchase(token: order.token, orderId: orderId, purchaseTime: order.createTime,
                                                        voidedTime: state.now, voidedSource: chargeback ? 2 : 1,
                                                        voidedReason: chargeback ? 7 : 1))
            return order.token
        }
        return notification(voided: token, orderId: orderId, productType: subscription(token) != nil ? 1 : 2)
    }

    /// The developer revoked the subscription: access ends now, no order is voided.
    @discardableResult
    public func revoke(_ token: String) throws(Failure) -> SimulatedNotification {
        try change(token) { [now] s in
            s.state = "SUBSCRIPTION_STATE_EXPIRED"; s.autoRenew = false; s.expiryTime = now
            s.cancellation = "developerInitiatedCancellation"
        }
        return notification(subscription: 12, token: token)
    }

    /// A one-time product (a single issue) bought now; `pending` leaves it pending.
    @discardableResult
    public func buyProduct(token: String, productId: String, account: String? = nil, pending: Bool = false,
                           test: Bool = false) -> SimulatedNotification {
        state.withLock { state in
            state.orderCount += 1
            let orderId = pending ? nil : String(format: "GPA.3311-0000-0000-%05d", state.orderCount)
            state.products[token] = SimulatedProductPurchase(
                token: token, productId: productId, orderId: orderId,
                purchaseState: pending ? 2 : 0, purchaseTime: state.now, obfuscatedAccountId: account, isTest: test)
            if let orderId {
                state.orders[orderId] = SimulatedOrder(orderId: orderId, token: token, productId: productId, basePlanId: "",
                                                       createTime: state.now, periodStart: state.now, periodEnd: state.now,
                                                       isOneTime: true)
            }
        }
        return notification(oneTime: 1, token: token, sku: productId)
    }

    /// A pending one-time purchase abandoned (not a refund).
    @discardableResult
    public func cancelPendingProduct(_ token: String) throws(Failure) -> SimulatedNotification {
        let sku: String = try state.withLock { (state: inout State) throws(Failure) in
            guard var p = state.products[token], p.purchaseState == 2 else { throw .invalid("\(token) is not pending") }
            p.purchaseState = 1
            state.products[token] = p
            return p.productId
        }
        return notification(oneTime: 2, token: token, sku: sku)
    }

    // MARK: Helpers

    private func change(_ token: String, _ body: (inout SimulatedSubscription) -> Void) throws(Failure) {
        try state.withLock { (state: inout State) throws(Failure) in
            guard var s = state.subscriptions[token] else { throw .unknownToken(token) }
            body(&s)
            state.subscriptions[token] = s
        }
    }

    /// A new order of `token` from `start(s)` (nil: now) for one period; the subscription active.
    private func charge(_ token: String, from start: (SimulatedSubscription) -> Instant?) throws(Failure) {
        try state.withLock { (state: inout State) throws(Failure) in
            guard var s = state.subscriptions[token], let first = s.orderIds.first else { throw .unknownToken(token) }
            let begin = start(s) ?? state.now
            let end = begin.adding(seconds: s.periodSeconds)
            let orderId = "\(first)..\(s.orderIds.count - 1)"
            state.orders[orderId] = SimulatedOrder(orderId: orderId, token: token, productId: s.productId,
                                                   basePlanId: s.basePlanId, createTime: state.now, periodStart: begin,
                                                   periodEnd: end)
            s.orderIds.append(orderId)
            s.paidEnd = end
            s.expiryTime = end
            s.state = "SUBSCRIPTION_STATE_ACTIVE"
            state.subscriptions[token] = s
        }
    }
}
