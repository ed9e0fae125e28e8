import AppStoreSimulator
import Foundation
@testable import GatewayConfiguration
@testable import GatewayCore
import Testing
import Wire
import GatewayTesting

/// `issue-gateway appstore migrate`: subscriptions known only by stored PKCS#7
/// receipts get their history and status from the Server API, once; a run again skips them.
@Suite struct AppStoreMigrationFlowTests {
    @Test func storedReceiptsAreMovedOntoTheServerAPIResumably() throws {
        let authority = try TestCertificateAuthority(options: .init(issuedAt: FlowFixtures.at("2025-06-01T00:00:00Z")))
        let history = FlowFixtures.monthlyHistory("5000")
        let pkcs7 = try #require(PKCS7ReceiptRendering.base64(bundleId: FlowFixtures.bundleId, transactions: history.transactions,
                                                              authority: authority))
        var script = FlowFixtures.script
        script.receipts[pkcs7] = history
        let flow = try AppStoreFlow(script: script, serverAPI: true)
        let reader = try flow.newReader()
        try #require(try flow.sendReceipt(pkcs7, for: reader).status == 200)
        let other = try flow.newReader()
        try #require(try flow.sendReceipt(FlowFixtures.production, for: other).status == 200)
        // A renewal the gateway never heard of: only the Server API tells it.
        try flow.simulator.addTransaction(
            ScriptedTransaction(transactionId: "50003", originalTransactionId: "50000", productId: "monthly.1m",
                                purchaseDate: FlowFixtures.at("2026-04-10T00:00:00Z"), expiresDate: FlowFixtures.at("2026-05-10T00:00:00Z"),
                                subscriptionGroupIdentifier: "g"),
            to: pkcs7)
        var failures: [String] = []
        let report = try flow.runtime.migrateReceiptsToServerAPI { failures.append($0) }
        #expect(failures.isEmpty)
        #expect(report == AppStoreMigrationReport(receipts: 2, unreadableReceipts: 1, subscriptions: 1, migrated: 1))
        #expect(try flow.storedTransactionIds(reader) == ["50000", "50001", "50002", "50003"])
        let again = try flow.runtime.migrateReceiptsToServerAPI { failures.append($0) }
        #expect(again == AppStoreMigrationReport(receipts: 2, unreadableReceipts: 1, subscriptions: 1, alreadyMigrated: 1))
    }

    @Test func withoutCredentialsTheMigrationRefusesToStart() throws {
        let flow = try AppStoreFlow()
        #expect(throws: StartError.self) { try flow.runtime.migrateReceiptsToServerAPI { _ in } }
    }
}
