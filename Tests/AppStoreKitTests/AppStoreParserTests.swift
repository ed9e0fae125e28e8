import Foundation
import Testing
import AppStoreKit
import Entitle
import IssueCatalog
import Wire

@Suite struct AppStoreParserTests {
    let now = Instant(millisecondsSinceEpoch: 1_700_000_000_000)

    func body(_ text: String) -> Data { Data(text.utf8) }

    @Test func verifyReceiptReadsEveryValueAsAStringAndMergesInApp() throws {
        let r = try AppStoreParsers.verifyReceipt(body("""
        {"status": 0, "environment": "Sandbox", "latest_receipt": "BASE64",
         "receipt": {"bundle_id": "com.example", "in_app": [
           {"transaction_id": "11", "original_transaction_id": "10", "product_id": "monthly",
            "purchase_date_ms": "1330000000000", "expires_date_ms": "1332000000000"}]},
         "latest_receipt_info": [
           {"transaction_id": "12", "original_transaction_id": "10", "product_id": "monthly",
            "purchase_date_ms": "1332000000000", "expires_date_ms": "1334000000000",
            "is_trial_period": "false", "is_in_intro_offer_period": "true",
            "web_order_line_item_id": "900000000000001", "in_app_ownership_type": "FAMILY_SHARED"},
           {"transaction_id": "11", "original_transaction_id": "10", "product_id": "monthly",
            "purchase_date_ms": "1330000000000", "expires_date_ms": "1332000000000",
            "cancellation_date_ms": "1331000000000", "cancellation_reason": "1", "is_upgraded": "true"}],
         "pending_renewal_info": [{"original_transaction_id": "10", "product_id": "monthly",
            "auto_renew_status": "0", "expiration_intent": "1", "is_in_billing_retry_period": "0"}]}
        """), observedAt: now)
        #expect(r.status == 0 && r.isValid)
        #expect(r.environment == .sandbox && r.bundleId == "com.example" && r.latestReceipt == "BASE64")
        #expect(r.transactions.map(\.transactionId) == ["11", "12"])
        let first = try #require(r.transactions.first)
        #expect(first.revocationDate == Instant(millisecondsSinceEpoch: 1_331_000_000_000))
        #expect(first.revocationReason == 1 && first.isUpgraded && first.environment == .sandbox)
        #expect(first.observedAt == now && first.source == .receipt)
        let second = r.transactions[1]
        #expect(second.offer == .introductory && second.ownership == .familyShared)
        #expect(second.webOrderLineItemId == "900000000000001")
        #expect(r.renewals.count == 1)
        #expect(r.renewals.first?.autoRenewStatus == false && r.renewals.first?.expirationIntent == .voluntary)
    }

    @Test func aSingleObjectLatestReceiptInfoIsAccepted() throws {
        let r = try AppStoreParsers.verifyReceipt(body("""
        {"status": 21006, "environment": "Production", "latest_receipt_info":
          {"transaction_id": "1", "original_transaction_id": "1", "product_id": "p", "purchase_date_ms": "5"}}
        """), observedAt: now)
        #expect(r.isValid && r.transactions.map(\.transactionId) == ["1"])
    }

    @Test(arguments: [
        (#"{"status": 21100, "is-retryable": true}"#, true),
        (#"{"status": 21199, "is_retryable": "false"}"#, false),
        (#"{"status": 21002, "is_retryable": 1}"#, true),
        (#"{"status": 21005}"#, false),
        (#"{"status": 21003, "is-retryable": "true"}"#, true),
    ])
    func retryableComesFromEitherSpelling(json: String, retryable: Bool) throws {
        #expect(try AppStoreParsers.verifyReceiptStatus(body(json)).isRetryable == retryable)
    }

    @Test func errorsNameTheField() {
        #expect(throws: AppStoreParseError.missingField("latest_receipt_info[1].purchase_date_ms")) {
            try AppStoreParsers.verifyReceipt(body("""
            {"status": 0, "environment": "Production", "latest_receipt_info": [
             {"transaction_id": "1", "original_transaction_id": "1", "product_id": "p", "purchase_date_ms": "5"},
             {"transaction_id": "2", "original_transaction_id": "1", "product_id": "p"}]}
            """), observedAt: now)
        }
        #expect(throws: AppStoreParseError.invalidField("latest_receipt_info[0].expires_date_ms", expected: "an integer")) {
            try AppStoreParsers.verifyReceipt(body("""
            {"status": 0, "environment": "Production", "latest_receipt_info": [
             {"transaction_id": "1", "original_transaction_id": "1", "product_id": "p", "purchase_date_ms": "5",
              "expires_date_ms": "2012-03-20"}]}
            """), observedAt: now)
        }
        #expect(throws: AppStoreParseError.missingField("status")) {
            try AppStoreParsers.verifyReceipt(body(#"{"environment": "Sandbox"}"#), observedAt: now)
        }
        #expect(throws: AppStoreParseError.notJSON("top level is not an object")) {
            try AppStoreParsers.verifyReceipt(body("[1]"), observedAt: now)
        }
        #expect(throws: AppStoreParseError.missingField("environment")) {
            try AppStoreParsers.verifyReceipt(body("""
            {"status": 0, "pending_renewal_info": [{"original_transaction_id": "1", "auto_renew_status": "1"}]}
            """), observedAt: now)
        }
    }

    @Test func oversizedBodiesAreRefusedBeforeParsing() {
        let big = Data(count: AppStoreParserLimits.maximumBodyBytes + 1)
        #expect(throws: AppStoreParseError.tooLarge(bytes: big.count, limit: AppStoreParserLimits.maximumBodyBytes)) {
            try AppStoreParsers.verifyReceipt(big, observedAt: now)
        }
    }

    @Test func signedTransactionReadsNumbersWithFractions() throws {
        let t = try AppStoreParsers.signedTransaction(payload: body("""
        {"transactionId": "2000", "originalTransactionId": "1000", "productId": "monthly",
         "purchaseDate": 1672956154000.7, "expiresDate": 1675634554000, "revocationDate": 1673000000000,
         "revocationReason": 0, "isUpgraded": true, "offerType": 1, "offerDiscountType": "FREE_TRIAL",
         "inAppOwnershipType": "PURCHASED", "environment": "Sandbox", "signedDate": 1672956154123,
         "bundleId": "com.example", "type": "Auto-Renewable Subscription"}
        """))
        #expect(t.purchaseDate == Instant(millisecondsSinceEpoch: 1_672_956_154_000))
        #expect(t.expiresDate == Instant(millisecondsSinceEpoch: 1_675_634_554_000))
        #expect(t.revocationReason == 0 && t.isUpgraded && t.offer == .freeTrial)
        #expect(t.environment == .sandbox && t.source == .signedTransaction)
        #expect(t.observedAt == Instant(millisecondsSinceEpoch: 1_672_956_154_123))
        #expect(throws: AppStoreParseError.invalidField("isUpgraded", expected: "a boolean")) {
            try AppStoreParsers.signedTransaction(payload: body("""
            {"transactionId": "1", "originalTransactionId": "1", "productId": "p", "purchaseDate": 1,
             "environment": "Production", "isUpgraded": "yes"}
            """))
        }
    }

    /// E24: `revocationType` says whether a revocation voids or cuts; absent is a full refund.
    @Test(arguments: [(#""revocationType": "REFUND_FULL","#, RevocationKind?.some(.void)),
                      (#""revocationType": "REFUND_PRORATED", "revocationPercentage": 58000,"#, .proratedRefund),
                      (#""revocationType": "FAMILY_REVOKE","#, .familyRevoke), ("", nil)])
    func signedTransactionSaysHowItWasRevoked(fields: String, kind: RevocationKind?) throws {
        let t = try AppStoreParsers.signedTransaction(payload: body("""
        {"transactionId": "2", "originalTransactionId": "1", "productId": "p", "purchaseDate": 1, "expiresDate": 9,
         "revocationDate": 5, \(fields) "environment": "Production"}
        """))
        #expect(t.revocationKind == kind)
        #expect(t.revocationPercentage == (kind == .proratedRefund ? 58_000 : nil))
        #expect(t.isVoid == (kind == nil || kind == .void) && t.isCut == !(kind == nil || kind == .void))
    }

    @Test(arguments: [(#""revocationType": "REFUND_SOME""#, "revocationType", "FAMILY_REVOKE or REFUND_FULL or REFUND_PRORATED"),
                      (#""revocationPercentage": 100001"#, "revocationPercentage", "thousandths of a percent, 0 to 100000")])
    func aRevocationOutsideTheKnownValuesIsRefused(field: String, name: String, expected: String) {
        #expect(throws: AppStoreParseError.invalidField(name, expected: expected)) {
            try AppStoreParsers.signedTransaction(payload: body("""
            {"transactionId": "2", "originalTransactionId": "1", "productId": "p", "purchaseDate": 1,
             "revocationDate": 5, \(field), "environment": "Production"}
            """))
        }
    }

    /// appstore.md, Fields added since 2024: a win-back offer (type 4) with its period, the app
    /// download's id, and a commitment plan's monthly payment (its own interval, as ever; the
    /// plan's own fields are not needed to read it).
    @Test func signedTransactionFieldsAddedSince2024() throws {
        let t = try AppStoreParsers.signedTransaction(payload: body("""
        {"transactionId": "3", "originalTransactionId": "1", "productId": "annual.commitment", "purchaseDate": 1,
         "expiresDate": 2678400001, "offerType": 4, "offerDiscountType": "PAY_AS_YOU_GO", "offerPeriod": "P3M",
         "offerIdentifier": "come-back", "appTransactionId": "704289572311094226", "billingPlanType": "COMMITMENT",
         "environment": "Production"}
        """))
        #expect(t.offer == .winBack)
        #expect(t.offerPeriod == ISODuration("P3M"))
        #expect(t.appTransactionId == "704289572311094226")
        #expect(t.expiresDate == Instant(millisecondsSinceEpoch: 2_678_400_001))
        let receipt = try AppStoreParsers.signedTransaction(payload: body("""
        {"transactionId": "4", "originalTransactionId": "1", "productId": "p", "purchaseDate": 1, "environment": "Production"}
        """))
        #expect(receipt.offerPeriod == nil && receipt.appTransactionId == nil)
        #expect(throws: AppStoreParseError.invalidField("offerPeriod", expected: "an ISO 8601 duration")) {
            try AppStoreParsers.signedTransaction(payload: body("""
            {"transactionId": "5", "originalTransactionId": "1", "productId": "p", "purchaseDate": 1,
             "offerPeriod": "three months", "environment": "Production"}
            """))
        }
    }

    @Test func signedRenewalInfo() throws {
        let r = try AppStoreParsers.signedRenewalInfo(payload: body("""
        {"originalTransactionId": "1000", "productId": "monthly", "autoRenewStatus": 1,
         "autoRenewProductId": "yearly", "expirationIntent": 2, "isInBillingRetryPeriod": true,
         "gracePeriodExpiresDate": 1675634554000.5, "environment": "Production", "signedDate": 1}
        """))
        #expect(r.autoRenewStatus && r.autoRenewProductId == "yearly" && r.expirationIntent == .billing)
        let winBack = try AppStoreParsers.signedRenewalInfo(payload: body("""
        {"originalTransactionId": "1000", "autoRenewStatus": 1, "appTransactionId": "704289572311094226",
         "offerPeriod": "P1M", "eligibleWinBackOfferIds": ["come-back"], "environment": "Production"}
        """))
        #expect(winBack.appTransactionId == "704289572311094226" && winBack.offerPeriod == ISODuration("P1M"))
        #expect(r.isInBillingRetry && r.gracePeriodExpiresDate == Instant(millisecondsSinceEpoch: 1_675_634_554_000))
        #expect(throws: AppStoreParseError.invalidField("expirationIntent", expected: "an expiration intent 1–5")) {
            try AppStoreParsers.signedRenewalInfo(payload: body("""
            {"originalTransactionId": "1", "environment": "Production", "expirationIntent": 9}
            """))
        }
    }

    @Test func notificationV1TakesPRODAndItsUnifiedReceipt() throws {
        let n = try AppStoreParsers.notificationV1(body("""
        {"notification_type": "CANCEL", "password": "secret", "environment": "PROD",
         "auto_renew_status": "false", "bid": "com.example",
         "unified_receipt": {"status": 0, "latest_receipt": "B64", "latest_receipt_info": [
           {"transaction_id": "7", "original_transaction_id": "7", "product_id": "p",
            "purchase_date_ms": "1000", "expires_date_ms": "2000", "cancellation_date_ms": "1500"}]}}
        """), observedAt: now)
        #expect(n.notificationType == "CANCEL" && n.password == "secret" && n.environment == .production)
        #expect(n.autoRenewStatus == false && n.bundleId == "com.example")
        let t = try #require(n.unifiedReceipt?.transactions.first)
        #expect(t.environment == .production && t.source == .notificationV1)
        #expect(t.revocationDate == Instant(millisecondsSinceEpoch: 1500))
    }

    static let vector = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../shared/vectors/appstore/testNotification").standardized

    @Test(.enabled(if: FileManager.default.fileExists(atPath: vector.path), "shared test vectors absent"))
    func notificationV2FromAppleTestVector() throws {
        let jws = try String(contentsOf: Self.vector, encoding: .utf8)
        let parts = jws.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".")
        try #require(parts.count == 3)
        var b64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while b64.count % 4 != 0 { b64 += "=" }
        let payload = try #require(Data(base64Encoded: b64))
        let n = try AppStoreParsers.notificationV2(payload: payload)
        #expect(n.notificationType == "TEST" && n.notificationUUID == "9ad56bd2-0bc6-42e0-af24-fd996d87a1e6")
        #expect(n.signedDate == Instant(millisecondsSinceEpoch: 1_681_314_324_000))
        #expect(n.data?.bundleId == "com.example" && n.data?.appAppleId == 1234 && n.data?.environment == .sandbox)
    }

    /// E2: only a receipt the App Store accepted proves anything.
    @Test func e2ARefusedReceiptYieldsNoTransactions() throws {
        let r = try AppStoreParsers.verifyReceipt(Data("""
        {"status": 21003, "environment": "Production", "latest_receipt_info": [
         {"transaction_id": "1", "original_transaction_id": "1", "product_id": "p", "purchase_date_ms": "5"}]}
        """.utf8), observedAt: now)
        #expect(!r.isValid && r.transactions.isEmpty)
    }
}
