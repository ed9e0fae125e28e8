import AppStoreSimulator
import Foundation
import IssueCatalog
import TestSupport
import Wire

/// The App Store the `serve` processes of one deployment share: the simulator runs in
/// the test process on an ephemeral port, knows one renewing monthly receipt, and the catalog
/// folder written beside it sells the product that receipt names. Every `serve` is given the
/// simulator's verifyReceipt URLs, its V1 shared secret and the `keep` policy.
final class ServeAppStore: @unchecked Sendable {
    static let bundleId = "com.example.serve-reader"
    static let appAppleId: Int64 = 4343
    static let sharedSecret = "serve-simulator-shared-secret"
    static let productId = "monthly.serve.1m"
    static let issues = ["2026-01", "2026-02", "2026-03"]

    static func at(_ text: String) -> Instant { Instant(rfc3339: text)! }

    /// base64 of the receipt's name: the gateway insists on base64 receipt data.
    static let receipt = Data("serve-receipt".utf8).base64EncodedString()
    /// The transaction of the last period, 2026-03-10 → 04-10, which entitles issue 2026-03.
    static let marchTransaction = "5002"

    let simulator: AppStoreSimulator
    let server: AppStoreSimulatorServer
    let catalogFolder = TemporaryDatabase()

    init() throws {
        let authority = try TestCertificateAuthority(options: .init(issuedAt: Self.at("2025-06-01T00:00:00Z")))
        // The simulator's clock stays in March 2026: Apple answers as it did then.
        simulator = AppStoreSimulator(script: Self.script, authority: authority, clock: { ServeAppStore.at("2026-03-20T12:00:00Z") })
        server = try AppStoreSimulatorServer(simulator: simulator).start()
        for (name, data) in CatalogFolder.encode(Self.catalog) {
            let file = catalogFolder.folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file)
        }
    }

    deinit { server.stop() }

    /// What a `serve` needs to talk to this App Store, under the `keep` transfer policy.
    var environment: [String: String] {
        ["ISSUE_GATEWAY_APPSTORE_PRODUCTION_URL": server.productionURL.absoluteString,
         "ISSUE_GATEWAY_APPSTORE_SANDBOX_URL": server.sandboxURL.absoluteString,
         "ISSUE_GATEWAY_APPSTORE_SHARED_SECRET": Self.sharedSecret, "ISSUE_GATEWAY_BUNDLE_ID": Self.bundleId,
         "ISSUE_GATEWAY_APP_APPLE_ID": String(Self.appAppleId), "ISSUE_GATEWAY_TRANSFER_POLICY": "keep",
         "ISSUE_GATEWAY_CATALOG": catalogFolder.folder.path]
    }

    /// A V1 REFUND notification for the receipt, after `refund` of the March transaction.
    func refundMarch() throws -> String {
        try simulator.refund(transactionId: Self.marchTransaction, in: Self.receipt, at: Self.at("2026-03-18T00:00:00Z"))
        return String(decoding: try simulator.notificationV1(Self.receipt, type: "REFUND"), as: UTF8.self)
    }

    /// One publication, its three monthly issues, and the auto-renewable product the receipt buys.
    static let catalog = Catalog(
        publications: [Publication(id: "monthly", title: "The Monthly")],
        products: [Product(id: productId, kind: .autoRenewable, grants: ["monthly"], subscriptionGroup: "g", level: 1)],
        issues: issues.map { id in
            Issue(publicationId: "monthly", id: id, title: "Issue \(id)", publishedAt: at("\(id)-15T00:00:00Z"),
                  assets: [Asset(path: "/content/monthly/\(id)/issue.pdf")])
        })

    /// Three monthly periods, 2026-01-10 → 02-10 → 03-10 → 04-10, each entitling the issue of its month.
    static var script: SimulatorScript {
        let starts = ["2026-01-10", "2026-02-10", "2026-03-10", "2026-04-10"]
        let transactions = (0..<3).map { index in
            ScriptedTransaction(transactionId: "500\(index)", originalTransactionId: "5000", productId: productId,
                                purchaseDate: at(starts[index] + "T00:00:00Z"), expiresDate: at(starts[index + 1] + "T00:00:00Z"),
                                subscriptionGroupIdentifier: "g")
        }
        return SimulatorScript(bundleId: bundleId, appAppleId: appAppleId, sharedSecret: sharedSecret, receipts: [
            receipt: ScriptedReceipt(transactions: transactions,
                                     renewals: [ScriptedRenewal(originalTransactionId: "5000", productId: productId)]),
        ])
    }
}
