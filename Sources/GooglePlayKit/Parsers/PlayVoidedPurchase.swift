import Foundation
import Wire

/// One entry of `voidedpurchases.list` (googleplay.md "Voided purchases"): an order refunded,
/// charged back or revoked.
public struct PlayVoidedPurchase: Sendable, Equatable {
    public var purchaseToken: String
    public var orderId: String?
    public var voidedTime: Instant
    public var voidedReason: Int64?

    /// A page of the list and the token of the next one.
    public struct Page: Sendable, Equatable {
        public var purchases: [PlayVoidedPurchase]
        public var nextPageToken: String?
    }

    public static func parsePage(_ body: some Collection<UInt8>) throws(PlayParseError) -> Page {
        let fields = try PlayFields.parse(body)
        var purchases: [PlayVoidedPurchase] = []
        for entry in try fields.objects("voidedPurchases") {
            guard let voided = try entry.milliseconds("voidedTimeMillis") else {
                throw .missingField(entry.name("voidedTimeMillis"))
            }
            purchases.append(PlayVoidedPurchase(purchaseToken: try entry.requiredString("purchaseToken"),
                                                orderId: try entry.string("orderId"), voidedTime: voided,
                                                voidedReason: try entry.integerOrDigits("voidedReason")))
        }
        return Page(purchases: purchases, nextPageToken: try fields.object("tokenPagination")?.string("nextPageToken"))
    }
}
