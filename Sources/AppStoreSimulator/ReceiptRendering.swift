import AppStoreKit
import Entitle
import Foundation
import IssueCatalog
import Wire

/// Renders scripted histories the way the App Store sends them (appstore.md): verifyReceipt's
/// layout where every value in `latest_receipt_info`, `in_app` and `pending_renewal_info` is a
/// JSON string, and V2 payload fields where dates are numbers of milliseconds.
enum ReceiptRendering {
    /// A verifyReceipt answer with status 0. `latest_receipt` is the receipt-data itself, so the
    /// gateway's status poller re-verifies the same scripted receipt and sees its changes.
    static func verifyReceiptBody(receiptData: String, receipt: ScriptedReceipt, bundleId: String) -> [String: Any] {
        let transactions = receipt.transactions.map(legacyTransaction)
        return [
            "status": 0,
            "environment": environmentName(receipt.environment),
            "receipt": ["bundle_id": bundleId, "receipt_type": receipt.environment == .sandbox ? "ProductionSandbox" : "Production",
                        "in_app": transactions],
            "latest_receipt": receiptData,
            "latest_receipt_info": transactions,
            "pending_renewal_info": receipt.renewals.map(legacyRenewal),
        ]
    }

    /// A V1 notification (appstore.md "Server notifications, version 1") carrying the whole
    /// history as its `unified_receipt`.
    static func notificationV1(type: String, password: String?, receiptData: String, receipt: ScriptedReceipt,
                               bundleId: String) -> [String: Any] {
        var unified = verifyReceiptBody(receiptData: receiptData, receipt: receipt, bundleId: bundleId)
        unified["receipt"] = nil
        var body: [String: Any] = [
            "notification_type": type,
            "environment": receipt.environment == .production ? "PROD" : "Sandbox",
            "bid": bundleId,
            "unified_receipt": unified,
        ]
        body["password"] = password
        if let renewal = receipt.renewals.first {
            // Unlike the receipt, V1's top-level flag is "true"/"false".
            body["auto_renew_status"] = renewal.autoRenewStatus ? "true" : "false"
            body["auto_renew_product_id"] = renewal.autoRenewProductId ?? renewal.productId
        }
        return body
    }

    static func legacyTransaction(_ t: ScriptedTransaction) -> [String: String] {
        var fields: [String: String] = [
            "transaction_id": t.transactionId,
            "original_transaction_id": t.originalTransactionId,
            "product_id": t.productId,
            "quantity": "1",
            "is_trial_period": t.isTrialPeriod ? "true" : "false",
            "is_in_intro_offer_period": "false",
            "in_app_ownership_type": t.ownershipType,
        ]
        date(t.purchaseDate, "purchase_date", into: &fields)
        date(t.originalPurchaseDate ?? t.purchaseDate, "original_purchase_date", into: &fields)
        if let expires = t.expiresDate { date(expires, "expires_date", into: &fields) }
        if let cancelled = t.cancellationDate {
            date(cancelled, "cancellation_date", into: &fields)
            fields["cancellation_reason"] = String(t.cancellationReason ?? 0)
        }
        if t.isUpgraded { fields["is_upgraded"] = "true" }
        fields["app_account_token"] = t.appAccountToken
        fields["web_order_line_item_id"] = t.webOrderLineItemId
        fields["subscription_group_identifier"] = t.subscriptionGroupIdentifier
        return fields
    }

    static func legacyRenewal(_ r: ScriptedRenewal) -> [String: String] {
        var fields: [String: String] = [
            "original_transaction_id": r.originalTransactionId,
            "product_id": r.productId,
            "auto_renew_status": r.autoRenewStatus ? "1" : "0",
            "auto_renew_product_id": r.autoRenewProductId ?? r.productId,
            "is_in_billing_retry_period": r.isInBillingRetryPeriod ? "1" : "0",
        ]
        fields["expiration_intent"] = r.expirationIntent.map(String.init)
        if let grace = r.gracePeriodExpiresDate { date(grace, "grace_period_expires_date", into: &fields) }
        return fields
    }

    /// `JWSTransaction` fields (without bundleId/environment/signedDate, which the signer stamps).
    static func signedTransactionFields(_ t: ScriptedTransaction) -> [String: Any] {
        var fields: [String: Any] = [
            "transactionId": t.transactionId,
            "originalTransactionId": t.originalTransactionId,
            "productId": t.productId,
            "purchaseDate": t.purchaseDate.millisecondsSinceEpoch,
            "originalPurchaseDate": (t.originalPurchaseDate ?? t.purchaseDate).millisecondsSinceEpoch,
            "inAppOwnershipType": t.ownershipType,
            "quantity": 1,
            "type": t.expiresDate == nil ? "Non-Consumable" : "Auto-Renewable Subscription",
            "transactionReason": t.transactionId == t.originalTransactionId ? "PURCHASE" : "RENEWAL",
        ]
        fields["expiresDate"] = t.expiresDate?.millisecondsSinceEpoch
        fields["revocationDate"] = t.cancellationDate?.millisecondsSinceEpoch
        fields["revocationReason"] = t.cancellationDate.map { _ in t.cancellationReason ?? 0 }
        fields["revocationType"] = t.cancellationDate.flatMap { _ in t.revocationType }
        fields["revocationPercentage"] = t.cancellationDate.flatMap { _ in t.revocationPercentage }
        if t.isUpgraded { fields["isUpgraded"] = true }
        if t.isTrialPeriod { fields["offerType"] = 1; fields["offerDiscountType"] = "FREE_TRIAL" }
        fields["appAccountToken"] = t.appAccountToken
        fields["webOrderLineItemId"] = t.webOrderLineItemId
        fields["subscriptionGroupIdentifier"] = t.subscriptionGroupIdentifier
        return fields
    }

    /// `JWSRenewalInfo` fields (without environment/signedDate).
    static func signedRenewalFields(_ r: ScriptedRenewal) -> [String: Any] {
        var fields: [String: Any] = [
            "originalTransactionId": r.originalTransactionId,
            "productId": r.productId,
            "autoRenewStatus": r.autoRenewStatus ? 1 : 0,
            "autoRenewProductId": r.autoRenewProductId ?? r.productId,
            "isInBillingRetryPeriod": r.isInBillingRetryPeriod,
        ]
        fields["expirationIntent"] = r.expirationIntent
        fields["gracePeriodExpiresDate"] = r.gracePeriodExpiresDate?.millisecondsSinceEpoch
        return fields
    }

    static func environmentName(_ environment: StoreEnvironment) -> String {
        environment == .production ? "Production" : "Sandbox"
    }

    /// `<name>_ms` (what the gateway reads) beside the formatted `<name>` Apple also sends.
    private static func date(_ instant: Instant, _ name: String, into fields: inout [String: String]) {
        fields[name + "_ms"] = String(instant.millisecondsSinceEpoch)
        let text = instant.rfc3339
        fields[name] = String(text.prefix(19)).replacingOccurrences(of: "T", with: " ") + " Etc/GMT"
    }

    static func json(_ object: Any) -> Data {
        // Only strings, numbers, booleans, arrays and objects are ever rendered.
        if let value = SimulatorJSON.value(object) { return Data(value.serializedBytes) }
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }
}
