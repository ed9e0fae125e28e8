import Foundation
import Wire

/// An order's `state` (Orders API).
public enum PlayOrderState: String, Sendable, Equatable {
    case pending = "PENDING", processed = "PROCESSED", canceled = "CANCELED", pendingRefund = "PENDING_REFUND"
    case partiallyRefunded = "PARTIALLY_REFUNDED", refunded = "REFUNDED"
    case unspecified = "STATE_UNSPECIFIED"
}

/// Which offer phase an order paid for (googleplay.md: free trial .1, intro .2).
public enum PlayOfferPhase: String, Sendable, Equatable {
    case base = "baseDetails", freeTrial = "freeTrialDetails", introductory = "introductoryPriceDetails"
    case proration = "prorationPeriodDetails"
}

/// One charge, as `orders.get` / `orders:batchGet` answer it (googleplay.md "Order").
public struct PlayOrder: Sendable, Equatable {
    public var orderId: String
    public var purchaseToken: String?
    public var state: PlayOrderState
    public var createTime: Instant?
    public var productId: String?
    /// E25: the service period Google reports for a subscription order.
    public var servicePeriodStart: Instant?
    public var servicePeriodEnd: Instant?
    public var offerPhase: PlayOfferPhase?
    public var refundTime: Instant?
    public var refundIsChargeback: Bool
    /// E25: true for an order the Orders API did not answer, whose service period the gateway
    /// built from the subscription snapshots it fetched (`PlaySnapshotPeriods`).
    public var periodFromSnapshots = false

    static func parse(_ fields: PlayFields) throws(PlayParseError) -> PlayOrder {
        let line = try fields.objects("lineItems").first
        let details = try line?.object("subscriptionDetails")
        let phases = try details?.object("offerPhaseDetails")
        let refund = try fields.object("orderHistory")?.object("refundEvent")
        return PlayOrder(
            orderId: try fields.requiredString("orderId"), purchaseToken: try fields.string("purchaseToken"),
            state: PlayOrderState(rawValue: try fields.string("state") ?? "") ?? .unspecified,
            createTime: try fields.rfc3339("createTime"), productId: try line?.string("productId"),
            servicePeriodStart: try details?.rfc3339("servicePeriodStartTime"),
            servicePeriodEnd: try details?.rfc3339("servicePeriodEndTime"),
            offerPhase: phases.flatMap { phases in
                [PlayOfferPhase.freeTrial, .introductory, .proration, .base].first { phases.has($0.rawValue) }
            },
            refundTime: try refund?.rfc3339("eventTime"),
            refundIsChargeback: try refund?.string("refundReason") == "CHARGEBACK")
    }

    public static func parse(_ body: some Collection<UInt8>) throws(PlayParseError) -> PlayOrder {
        try parse(try PlayFields.parse(body))
    }

    /// `orders:batchGet`'s `{orders: [...]}`.
    public static func parseBatch(_ body: some Collection<UInt8>) throws(PlayParseError) -> [PlayOrder] {
        var orders: [PlayOrder] = []
        for order in try PlayFields.parse(body).objects("orders") { orders.append(try parse(order)) }
        return orders
    }

    /// Where `id` falls among its subscription's orders (googleplay.md "Identifiers"): -1 for the
    /// first order `GPA.…`, k for renewal `GPA.…..k` (an id of another form counts as a first order).
    public static func position(_ id: String) -> Int {
        guard let range = id.range(of: "..", options: .backwards), let k = Int(id[range.upperBound...]), k >= 0 else { return -1 }
        return k
    }

    /// googleplay.md "Identifiers": a subscription's first order is `GPA.…`, renewal k is that id
    /// + `..k`. The ids up to and including `latest`, first order first; nil when `latest` is not
    /// of that form.
    public static func idsThrough(_ latest: String) -> [String]? {
        guard let range = latest.range(of: "..", options: .backwards) else { return [latest] }
        let base = String(latest[..<range.lowerBound])
        guard let last = Int(latest[range.upperBound...]), last >= 0, !base.isEmpty else { return nil }
        return [base] + (0...last).map { "\(base)..\($0)" }
    }
}
