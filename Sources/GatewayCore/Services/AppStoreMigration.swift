import AppStoreKit
import Entitle
import Foundation
import GatewayStore

/// What `issue-gateway appstore migrate` did.
public struct AppStoreMigrationReport: Sendable, Equatable {
    public var receipts = 0
    /// Receipts that are no PKCS#7 app receipt (nothing to read ids from).
    public var unreadableReceipts = 0
    public var subscriptions = 0
    public var migrated = 0
    /// Fetched whole before (an earlier run, a signed transaction): skipped without asking Apple.
    public var alreadyMigrated = 0
    public var failed = 0
}

/// Moving off verifyReceipt: every subscription named by a stored receipt (its
/// in-app records' original transaction ids; the receipts were verified by Apple when stored, so
/// reading them unverified is safe) gets its whole history and status from the App Store Server
/// API, stored like any fact and marked fetched whole. Resumable: a subscription marked fetched is
/// skipped, so a run cut short (or one with failures) is simply run again.
extension AppStoreIngestion {
    public static let migrationBatch = 100

    public func migrateReceiptsToServerAPI(progress: (String) -> Void) throws(StartError) -> AppStoreMigrationReport {
        let ingestion = self
        guard ingestion.serverAPI != nil else {
            throw StartError(description: "the migration needs App Store Server API credentials (ISSUE_GATEWAY_APPSTORE_API_*)")
        }
        var report = AppStoreMigrationReport()
        var after: String?
        while true {
            let page: [ReceiptContent]
            do { page = try ingestion.store.storedReceipts(after: after, limit: Self.migrationBatch) } catch {
                throw StartError(description: "the store could not be read: \(error)")
            }
            guard let last = page.last else { break }
            after = last.digest
            for receipt in page {
                report.receipts += 1
                guard let records = try? AppReceipt.inAppRecords(base64: receipt.data) else {
                    report.unreadableReceipts += 1
                    continue
                }
                for originalTransactionId in Set(records.compactMap(\.originalTransactionId)).sorted() {
                    report.subscriptions += 1
                    migrate(originalTransactionId, ingestion, &report, progress)
                }
            }
        }
        return report
    }

    private func migrate(_ originalTransactionId: String, _ ingestion: AppStoreIngestion,
                         _ report: inout AppStoreMigrationReport, _ progress: (String) -> Void) {
        let keys = Set(StoreEnvironment.allCases.map { SubscriptionKey(environment: $0, originalTransactionId: originalTransactionId) })
        if let missing = try? ingestion.store.historiesNotFetched(keys), missing.count < keys.count {
            report.alreadyMigrated += 1
            return
        }
        do throws(GatewayError) {
            var facts = try ingestion.historyFacts(originalTransactionId, in: nil)
            let environment = facts.transactions.first { $0.originalTransactionId == originalTransactionId }?.environment
            facts.append(try ingestion.statusFacts(originalTransactionId, in: environment))
            try ingestion.intake.saveForOwners(facts, source: .serverApi)
            report.migrated += 1
        } catch {
            report.failed += 1
            progress("\(originalTransactionId): \(error.message)")
        }
    }
}
