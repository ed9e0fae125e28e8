import Entitle
import Foundation
import IssueCatalog
import Wire

/// JSON bodies from the App Store into the engine's vocabulary (appstore.md). No I/O: bodies
/// come in as bytes, the time of observation as an argument. Strict about what the engine needs,
/// tolerant of what it ignores; every error names the field.
public enum AppStoreParsers {
    /// A verifyReceipt answer. `observedAt` is when the App Store answered: it dates every
    /// description in the body for E1's "newer information wins".
    public static func verifyReceipt(_ body: Data, observedAt: Instant) throws -> VerifyReceiptResponse {
        try receipt(FieldReader.parse(body), observedAt: observedAt, fallbackEnvironment: nil,
                    source: .receipt)
    }

    /// Only the top-level fields of a verifyReceipt answer the client decides on (status,
    /// `is-retryable` in either spelling, environment); the transactions are left unread.
    public static func verifyReceiptStatus(_ body: Data) throws -> VerifyReceiptStatusFields {
        let o = try FieldReader.parse(body)
        guard let status = try o.integerOrDigits("status") else { throw AppStoreParseError.missingField(o.name("status")) }
        return VerifyReceiptStatusFields(status: Int(clamping: status),
                                         isRetryable: try o.boolOrSpelled("is-retryable") ?? o.boolOrSpelled("is_retryable") ?? false,
                                         environment: try? o.oneOf("environment", ReceiptFields.environments))
    }

    /// A V1 notification; its `unified_receipt` has verifyReceipt's layout.
    public static func notificationV1(_ body: Data, observedAt: Instant) throws -> NotificationV1 {
        let o = try FieldReader.parse(body)
        let environment = try o.oneOf("environment", ReceiptFields.environments)
        return NotificationV1(
            notificationType: try o.requiredString("notification_type"),
            password: try o.string("password"),
            environment: environment,
            autoRenewStatus: try o.boolOrSpelled("auto_renew_status"),
            autoRenewProductId: try o.string("auto_renew_product_id"),
            bundleId: try o.string("bid"),
            unifiedReceipt: try o.object("unified_receipt").map {
                try receipt($0, observedAt: observedAt, fallbackEnvironment: environment, source: .notificationV1)
            })
    }

    /// A V2 signed transaction's payload, after its JWS was verified.
    public static func signedTransaction(payload: Data) throws -> Transaction {
        try SignedPayloadFields.transaction(FieldReader.parse(payload))
    }

    /// A V2 signed renewal info's payload, after its JWS was verified.
    public static func signedRenewalInfo(payload: Data) throws -> RenewalInfo {
        try SignedPayloadFields.renewal(FieldReader.parse(payload))
    }

    /// A V2 notification's payload, after its JWS was verified. The nested signed infos stay JWS.
    public static func notificationV2(payload: Data) throws -> NotificationV2 {
        let o = try FieldReader.parse(payload)
        let data = try o.object("data").map { d in
            NotificationV2.Payload(
                bundleId: try d.string("bundleId"), appAppleId: try d.integerOrDigits("appAppleId"),
                environment: try d.oneOf("environment", SignedPayloadFields.environments),
                status: try d.integerOrDigits("status").map { Int(clamping: $0) },
                signedTransactionInfo: try d.string("signedTransactionInfo"),
                signedRenewalInfo: try d.string("signedRenewalInfo"))
        }
        return NotificationV2(
            notificationUUID: try o.requiredString("notificationUUID"),
            notificationType: try o.requiredString("notificationType"),
            subtype: try o.string("subtype"), version: try o.string("version"),
            signedDate: try o.milliseconds("signedDate"), data: data)
    }

    private static func receipt(_ o: FieldReader, observedAt: Instant, fallbackEnvironment: StoreEnvironment?,
                                source: TransactionSource) throws -> VerifyReceiptResponse {
        guard let status = try o.integerOrDigits("status") else { throw AppStoreParseError.missingField(o.name("status")) }
        let environment = try o.oneOf("environment", ReceiptFields.environments) ?? fallbackEnvironment
        let receiptObject = try o.object("receipt")
        var response = VerifyReceiptResponse(
            status: Int(clamping: status), environment: environment,
            bundleId: try receiptObject?.string("bundle_id"), latestReceipt: try o.string("latest_receipt"),
            transactions: [], renewals: [])
        let transactionObjects = try o.entries("latest_receipt_info", allowSingle: true)
            + (receiptObject?.entries("in_app") ?? [])
        let renewalObjects = try o.entries("pending_renewal_info")
        // E2: only a receipt the App Store accepted proves anything; a refused one yields no facts.
        guard response.isValid, !transactionObjects.isEmpty || !renewalObjects.isEmpty else { return response }
        // Transactions cannot be keyed (E1, E3) without knowing their environment.
        guard let environment else { throw AppStoreParseError.missingField(o.name("environment")) }
        response.transactions = TransactionMerge.mergeAll(try transactionObjects.map {
            try ReceiptFields.transaction($0, environment: environment, observedAt: observedAt, source: source)
        })
        response.renewals = TransactionMerge.mergeAll(try renewalObjects.map {
            try ReceiptFields.renewal($0, environment: environment, observedAt: observedAt, source: source)
        })
        return response
    }
}
