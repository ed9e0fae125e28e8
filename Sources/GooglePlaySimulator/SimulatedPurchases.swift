import Foundation
import Wire

/// One subscription token as the simulator keeps it: what `subscriptionsv2.get` answers.
public struct SimulatedSubscription: Sendable, Equatable {
    public var token: String
    public var productId: String
    public var basePlanId: String
    public var startTime: Instant?
    public var state: String
    public var expiryTime: Instant?
    public var linkedPurchaseToken: String?
    public var acknowledged = false
    public var obfuscatedAccountId: String?
    public var isTest = false
    public var autoRenew = true
    /// `canceledStateContext`'s member name, when canceled.
    public var cancellation: String?
    public var autoResumeTime: Instant?
    /// Order ids, first order first.
    public var orderIds: [String] = []
    /// The end of the last paid period (grace moves `expiryTime` past it).
    public var paidEnd: Instant?
    public var periodSeconds: Int64
}

/// One charge: what the Orders API answers.
public struct SimulatedOrder: Sendable, Equatable {
    public var orderId: String
    public var token: String
    public var productId: String
    public var basePlanId: String
    public var state = "PROCESSED"
    public var createTime: Instant
    public var periodStart: Instant
    public var periodEnd: Instant
    /// `freeTrialDetails`, `introductoryPriceDetails` or `baseDetails`.
    public var offerPhase = "baseDetails"
    public var refundTime: Instant?
    public var refundReason: String?
    /// A one-time product's order (`oneTimePurchaseDetails`, no service period).
    public var isOneTime = false
}

/// A one-time product purchase: what `products.get` answers.
public struct SimulatedProductPurchase: Sendable, Equatable {
    public var token: String
    public var productId: String
    public var orderId: String?
    /// 0 purchased, 1 canceled, 2 pending.
    public var purchaseState: Int
    public var acknowledged = false
    public var purchaseTime: Instant
    public var obfuscatedAccountId: String?
    public var isTest = false
}

/// An entry of `voidedpurchases.list`.
public struct SimulatedVoidedPurchase: Sendable, Equatable {
    public var token: String
    public var orderId: String
    public var purchaseTime: Instant
    public var voidedTime: Instant
    public var voidedSource: Int
    public var voidedReason: Int
}
