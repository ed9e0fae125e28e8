import Foundation
import IssueCatalog
import Testing
import Wire
@testable import AppStoreKit
@testable import AppStoreSimulator

/// Original transaction ids from verifyReceipt-era app receipts (PKCS#7, read with libcrypto),
/// for `issue-gateway appstore migrate`.
@Suite struct AppReceiptTests {
    static let authority = try! TestCertificateAuthority(options: .init(issuedAt: Instant(millisecondsSinceEpoch: 1_700_000_000_000)))

    @Test func theInAppRecordsOfASignedReceiptAreRead() throws {
        let transactions = (0..<3).map { index in
            ScriptedTransaction(transactionId: "70\(index)", originalTransactionId: "700", productId: "monthly",
                                purchaseDate: Instant(millisecondsSinceEpoch: 1_700_000_000_000 + Int64(index)))
        } + [ScriptedTransaction(transactionId: "800", productId: "issue.2026-01", purchaseDate: Instant(millisecondsSinceEpoch: 0))]
        let receipt = try #require(PKCS7ReceiptRendering.base64(bundleId: "org.example.reader", transactions: transactions,
                                                                authority: Self.authority))
        let records = try AppReceipt.inAppRecords(base64: receipt)
        #expect(records.map(\.transactionId) == ["700", "701", "702", "800"])
        #expect(records.map(\.originalTransactionId) == ["700", "700", "700", "800"])
    }

    @Test func whatIsNotAPKCS7ReceiptIsRefused() throws {
        #expect(throws: AppReceipt.ReadError.notPKCS7) { try AppReceipt.inAppRecords(base64: Data("receipt-production".utf8).base64EncodedString()) }
        #expect(throws: AppReceipt.ReadError.notBase64) { try AppReceipt.inAppRecords(base64: "%%%") }
        #expect(throws: AppReceipt.ReadError.tooLarge(limit: AppReceipt.maximumBytes)) {
            try AppReceipt.inAppRecords(der: Data(count: AppReceipt.maximumBytes + 1))
        }
    }
}
