import Entitle
import IssueCatalog
import Wire

/// Where a transaction's fields stand in Apple's two layouts (appstore.md): verifyReceipt's
/// snake_case strings (only the `*_ms` dates) and the V2 `JWSTransaction`'s camelCase. The
/// fields mean the same in both, so they are read once (`FieldReader.transaction`).
struct TransactionKeys {
    var transactionId = "transactionId", originalTransactionId = "originalTransactionId", productId = "productId"
    var purchaseDate = "purchaseDate", originalPurchaseDate = "originalPurchaseDate", expiresDate = "expiresDate"
    var revocationDate = "revocationDate", revocationReason = "revocationReason", isUpgraded = "isUpgraded"
    var ownership = "inAppOwnershipType", webOrderLineItemId = "webOrderLineItemId"
    var subscriptionGroup = "subscriptionGroupIdentifier", appAccountToken = "appAccountToken"
    /// E24: only V2 says how a transaction was revoked; verifyReceipt has no such fields (nil).
    var revocationType: String? = "revocationType", revocationPercentage: String? = "revocationPercentage"
    /// Fields added since 2024, V2 only.
    var appTransactionId: String? = "appTransactionId", offerPeriod: String? = "offerPeriod"

    /// The model took its names from V2, so V2's spellings are the defaults above.
    static let signed = TransactionKeys()
    static let receipt = TransactionKeys(
        transactionId: "transaction_id", originalTransactionId: "original_transaction_id", productId: "product_id",
        purchaseDate: "purchase_date_ms", originalPurchaseDate: "original_purchase_date_ms", expiresDate: "expires_date_ms",
        revocationDate: "cancellation_date_ms", revocationReason: "cancellation_reason", isUpgraded: "is_upgraded",
        ownership: "in_app_ownership_type", webOrderLineItemId: "web_order_line_item_id",
        subscriptionGroup: "subscription_group_identifier", appAccountToken: "app_account_token",
        revocationType: nil, revocationPercentage: nil, appTransactionId: nil, offerPeriod: nil)

    /// Both layouts spell the ownership types alike.
    static let ownershipTypes: [String: Ownership] = ["PURCHASED": .purchased, "FAMILY_SHARED": .familyShared]

    /// E24, appstore.md "Fields added since 2024": absent means a full refund (E6).
    static let revocationTypes: [String: RevocationKind] = [
        "REFUND_FULL": .void, "REFUND_PRORATED": .proratedRefund, "FAMILY_REVOKE": .familyRevoke,
    ]

    /// Thousandths of a percent: 0 to 100 %.
    static let revocationPercentages: ClosedRange<Int64> = 0...100_000
}

extension FieldReader {
    /// A transaction in the layout `keys` names. The offer is marked differently in each layout,
    /// so `offer` reads it; `observedAt` is read last, after every field of the transaction.
    func transaction(_ keys: TransactionKeys, environment: StoreEnvironment, offer: (FieldReader) throws -> OfferKind?,
                     source: TransactionSource, observedAt: () throws -> Instant?) throws -> Transaction {
        Transaction(
            environment: environment,
            transactionId: try requiredString(keys.transactionId),
            originalTransactionId: try requiredString(keys.originalTransactionId),
            productId: try requiredString(keys.productId),
            purchaseDate: try requiredInstant(keys.purchaseDate),
            originalPurchaseDate: try milliseconds(keys.originalPurchaseDate),
            expiresDate: try milliseconds(keys.expiresDate),
            revocationDate: try milliseconds(keys.revocationDate),
            revocationReason: try integerOrDigits(keys.revocationReason).map { Int(clamping: $0) },
            revocationKind: try keys.revocationType.flatMap { try oneOf($0, TransactionKeys.revocationTypes) },
            revocationPercentage: try keys.revocationPercentage.flatMap(revocationPercentage),
            isUpgraded: try boolOrSpelled(keys.isUpgraded) ?? false,
            offer: try offer(self),
            ownership: try oneOf(keys.ownership, TransactionKeys.ownershipTypes) ?? .purchased,
            webOrderLineItemId: try string(keys.webOrderLineItemId),
            subscriptionGroup: try string(keys.subscriptionGroup),
            appAccountToken: try string(keys.appAccountToken),
            appTransactionId: try keys.appTransactionId.flatMap(string),
            offerPeriod: try keys.offerPeriod.flatMap(duration),
            source: source, observedAt: try observedAt())
    }

    /// An ISO 8601 duration (`offerPeriod`); anything else is refused, as every malformed field.
    func duration(_ key: String) throws -> ISODuration? {
        guard let text = try string(key) else { return nil }
        guard let duration = ISODuration(text) else {
            throw AppStoreParseError.invalidField(name(key), expected: "an ISO 8601 duration")
        }
        return duration
    }

    /// E24: Apple's `revocationPercentage`, in thousandths of a percent.
    private func revocationPercentage(_ key: String) throws -> Int? {
        guard let value = try integerOrDigits(key) else { return nil }
        guard TransactionKeys.revocationPercentages.contains(value) else {
            throw AppStoreParseError.invalidField(name(key), expected: "thousandths of a percent, 0 to 100000")
        }
        return Int(value)
    }
}
