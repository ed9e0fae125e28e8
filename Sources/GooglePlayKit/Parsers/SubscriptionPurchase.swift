import Foundation
import Wire

/// `subscriptionState` of a SubscriptionPurchaseV2 (googleplay.md's state table).
public enum PlaySubscriptionState: String, Sendable, Equatable, CaseIterable {
    case pending = "SUBSCRIPTION_STATE_PENDING"
    case active = "SUBSCRIPTION_STATE_ACTIVE"
    case paused = "SUBSCRIPTION_STATE_PAUSED"
    case inGracePeriod = "SUBSCRIPTION_STATE_IN_GRACE_PERIOD"
    case onHold = "SUBSCRIPTION_STATE_ON_HOLD"
    case canceled = "SUBSCRIPTION_STATE_CANCELED"
    case expired = "SUBSCRIPTION_STATE_EXPIRED"
    case pendingPurchaseCanceled = "SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED"
    /// A state Google adds later: read, never guessed at (it serves nothing).
    case unspecified = "SUBSCRIPTION_STATE_UNSPECIFIED"

    /// Whether the reader is served in this state (googleplay.md: active, canceled until expiry,
    /// grace).
    public var serves: Bool { self == .active || self == .canceled || self == .inGracePeriod }

    /// E24: Google's revoke without a voided order: expired, the developer having ended it.
    public func isRevoke(_ cancellation: PlayCancellation?) -> Bool { self == .expired && cancellation == .developer }
}

/// Which of `canceledStateContext`'s reasons Google gave.
public enum PlayCancellation: String, Sendable, Equatable {
    case user = "userInitiatedCancellation"
    case system = "systemInitiatedCancellation"
    case developer = "developerInitiatedCancellation"
    case replacement = "replacementCancellation"
}

/// One line of a SubscriptionPurchaseV2 (a product of the purchase).
public struct PlaySubscriptionLine: Sendable, Equatable {
    public var productId: String
    public var expiryTime: Instant?
    public var latestSuccessfulOrderId: String?
    /// nil for a prepaid plan.
    public var autoRenewEnabled: Bool?
    public var basePlanId: String?
    public var offerId: String?
}

/// `purchases.subscriptionsv2.get`'s answer (googleplay.md "SubscriptionPurchaseV2"), the fields
/// the gateway reads.
public struct PlaySubscriptionPurchase: Sendable, Equatable {
    public var startTime: Instant?
    public var state: PlaySubscriptionState
    public var linkedPurchaseToken: String?
    public var acknowledged: Bool
    public var obfuscatedExternalAccountId: String?
    /// `testPurchase` present: a license tester's purchase (our sandbox).
    public var isTest: Bool
    public var cancellation: PlayCancellation?
    public var autoResumeTime: Instant?
    public var lines: [PlaySubscriptionLine]

    /// The first line: the gateway sells one product per subscription purchase.
    public var line: PlaySubscriptionLine? { lines.first }

    /// E24: revoked without a voided order (`PlaySubscriptionState.isRevoke`).
    public var isRevoked: Bool { state.isRevoke(cancellation) }

    public static func parse(_ body: some Collection<UInt8>) throws(PlayParseError) -> PlaySubscriptionPurchase {
        let fields = try PlayFields.parse(body)
        let stateText = try fields.string("subscriptionState") ?? PlaySubscriptionState.unspecified.rawValue
        let state = PlaySubscriptionState(rawValue: stateText) ?? .unspecified
        var lines: [PlaySubscriptionLine] = []
        for line in try fields.objects("lineItems") {
            let offer = try line.object("offerDetails")
            var autoRenew: Bool?
            if let plan = try line.object("autoRenewingPlan") { autoRenew = try plan.bool("autoRenewEnabled") ?? false }
            lines.append(PlaySubscriptionLine(
                productId: try line.requiredString("productId"), expiryTime: try line.rfc3339("expiryTime"),
                latestSuccessfulOrderId: try line.string("latestSuccessfulOrderId"),
                autoRenewEnabled: autoRenew,
                basePlanId: try offer?.string("basePlanId"), offerId: try offer?.string("offerId")))
        }
        if state != .pending, state != .pendingPurchaseCanceled, lines.isEmpty { throw .missingField("lineItems") }
        var cancellation: PlayCancellation?
        if let context = try fields.object("canceledStateContext") {
            cancellation = [PlayCancellation.user, .system, .developer, .replacement].first { context.has($0.rawValue) }
        }
        let identifiers = try fields.object("externalAccountIdentifiers")
        return PlaySubscriptionPurchase(
            startTime: try fields.rfc3339("startTime"), state: state,
            linkedPurchaseToken: try fields.string("linkedPurchaseToken"),
            acknowledged: try fields.string("acknowledgementState") == "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED",
            obfuscatedExternalAccountId: try identifiers?.string("obfuscatedExternalAccountId"),
            isTest: fields.has("testPurchase"), cancellation: cancellation,
            autoResumeTime: try fields.object("pausedStateContext")?.rfc3339("autoResumeTime"), lines: lines)
    }
}
