import Entitle
import IssueCatalog

/// Decoded V2 payloads (StoreKit 2): dates are JSON numbers of milliseconds, sometimes with a
/// fraction; ids are strings; flags are booleans (appstore.md).
enum SignedPayloadFields {
    static let environments: [String: StoreEnvironment] = ["Production": .production, "Sandbox": .sandbox]

    static func transaction(_ o: FieldReader) throws -> Transaction {
        try o.transaction(.signed, environment: try requiredEnvironment(o), offer: offer, source: .signedTransaction,
                          observedAt: { try o.milliseconds("signedDate") })
    }

    /// `offerType` 1 introductory (a free trial when `offerDiscountType` is `FREE_TRIAL`),
    /// 2 promotional, 3 offer code, 4 win-back.
    private static func offer(_ o: FieldReader) throws -> OfferKind? {
        guard let type = try o.integerOrDigits("offerType") else { return nil }
        switch type {
        case 1: return try o.string("offerDiscountType") == "FREE_TRIAL" ? .freeTrial : .introductory
        case 2: return .promotional
        case 3: return .offerCode
        case 4: return .winBack
        default: throw AppStoreParseError.invalidField(o.name("offerType"), expected: "an offer type 1–4")
        }
    }

    static func renewal(_ o: FieldReader) throws -> RenewalInfo {
        RenewalInfo(
            environment: try requiredEnvironment(o),
            originalTransactionId: try o.requiredString("originalTransactionId"),
            productId: try o.string("productId"),
            autoRenewStatus: try o.boolOrSpelled("autoRenewStatus") ?? false,
            autoRenewProductId: try o.string("autoRenewProductId"),
            expirationIntent: try ReceiptFields.intent(o, "expirationIntent"),
            isInBillingRetry: try o.boolOrSpelled("isInBillingRetryPeriod") ?? false,
            gracePeriodExpiresDate: try o.milliseconds("gracePeriodExpiresDate"),
            priceConsentStatus: try o.integerOrDigits("priceIncreaseStatus").map { Int(clamping: $0) },
            appTransactionId: try o.string("appTransactionId"), offerPeriod: try o.duration("offerPeriod"),
            source: .signedTransaction, observedAt: try o.milliseconds("signedDate"))
    }

    static func requiredEnvironment(_ o: FieldReader) throws -> StoreEnvironment {
        guard let e = try o.oneOf("environment", environments) else { throw AppStoreParseError.missingField(o.name("environment")) }
        return e
    }
}
