import Entitle
import IssueCatalog
import Wire

/// verifyReceipt's layout (`latest_receipt_info`, `in_app`, `pending_renewal_info`): every value
/// a string (appstore.md). Only the `*_ms` dates are read, never the formatted `*_date`/`*_pst`
/// (`TransactionKeys.receipt`).
enum ReceiptFields {
    static let environments = StoreEnvironment.appleSpellings

    static func transaction(_ o: FieldReader, environment: StoreEnvironment, observedAt: Instant,
                            source: TransactionSource) throws -> Transaction {
        try o.transaction(.receipt, environment: environment, offer: offer, source: source, observedAt: { observedAt })
    }

    /// The receipt marks the offer with separate fields; a trial is also an introductory period,
    /// so the trial flag is read first.
    private static func offer(_ o: FieldReader) throws -> OfferKind? {
        if try o.boolOrSpelled("is_trial_period") == true { return .freeTrial }
        if try o.boolOrSpelled("is_in_intro_offer_period") == true { return .introductory }
        if try o.string("offer_code_ref_name") != nil { return .offerCode }
        if try o.string("promotional_offer_id") != nil { return .promotional }
        return nil
    }

    static func renewal(_ o: FieldReader, environment: StoreEnvironment, observedAt: Instant,
                        source: TransactionSource) throws -> RenewalInfo {
        RenewalInfo(
            environment: environment,
            originalTransactionId: try o.requiredString("original_transaction_id"),
            productId: try o.string("product_id"),
            autoRenewStatus: try o.boolOrSpelled("auto_renew_status") ?? false,
            autoRenewProductId: try o.string("auto_renew_product_id"),
            expirationIntent: try intent(o, "expiration_intent"),
            isInBillingRetry: try o.boolOrSpelled("is_in_billing_retry_period") ?? false,
            gracePeriodExpiresDate: try o.milliseconds("grace_period_expires_date_ms"),
            priceConsentStatus: try o.integerOrDigits("price_consent_status").map { Int(clamping: $0) },
            source: source, observedAt: observedAt)
    }

    static func intent(_ o: FieldReader, _ key: String) throws -> ExpirationIntent? {
        guard let code = try o.integerOrDigits(key) else { return nil }
        guard let intent = ExpirationIntent(rawValue: Int(clamping: code)) else {
            throw AppStoreParseError.invalidField(o.name(key), expected: "an expiration intent 1–5")
        }
        return intent
    }
}
