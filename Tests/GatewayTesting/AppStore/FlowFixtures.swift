import AppStoreSimulator
import Entitle
import Foundation
@testable import GatewayConfiguration
import IssueCatalog
import Wire

/// The world the App Store flow tests play in: one monthly magazine sold as an auto-renewable
/// subscription, three published issues, and receipts the simulator knows.
package enum FlowFixtures {
    package static func at(_ text: String) -> Instant { Instant(rfc3339: text)! }

    package static let bundleId = "com.example.monthly-reader"
    package static let appAppleId: Int64 = 4242
    package static let sharedSecret = "simulator-shared-secret"
    /// The gateway's "now" unless a test moves it.
    package static let now = at("2026-03-20T12:00:00Z")

    package static let catalog = Catalog(
        publications: [Publication(id: "monthly", title: "The Monthly")],
        products: [Product(id: "monthly.1m", kind: .autoRenewable, grants: ["monthly"], subscriptionGroup: "g", level: 1,
                           platform: "ios"),
                   // E14: February's issue on its own (a one-time charge).
                   Product(id: "issue.2026-02", kind: .issue, grants: ["monthly"],
                           issue: IssueRef(publicationId: "monthly", issueId: "2026-02"))],
        issues: ["2026-01", "2026-02", "2026-03"].map { id in
            Issue(publicationId: "monthly", id: id, title: "Issue \(id)", publishedAt: at("\(id)-15T00:00:00Z"),
                  assets: [Asset(path: "/content/monthly/\(id)/issue.pdf", bytes: 10, sha256: String(repeating: "b", count: 64))])
        })

    /// base64 of the receipt's name: the gateway insists on base64 receipt data.
    package static func receipt(_ name: String) -> String { Data(name.utf8).base64EncodedString() }

    package static let production = receipt("receipt-production")
    package static let sandbox = receipt("receipt-sandbox")
    package static let flaky = receipt("receipt-flaky")
    package static let down = receipt("receipt-down")
    package static let unknown = receipt("receipt-nobody-scripted")
    package static let tokenBound = receipt("receipt-app-account-token")

    /// The production subscription's fourth period (04-10 → 05-10), a renewal the gateway learns of later.
    package static var renewal: ScriptedTransaction {
        ScriptedTransaction(transactionId: "10003", originalTransactionId: "10000", productId: "monthly.1m",
                            purchaseDate: at("2026-04-10T00:00:00Z"), expiresDate: at("2026-05-10T00:00:00Z"))
    }

    /// Three monthly periods: 2026-01-10 → 02-10 → 03-10 → 04-10, renewing; entitles all three issues.
    package static func monthlyHistory(_ prefix: String, environment: StoreEnvironment = .production,
                               appAccountToken: String? = nil) -> ScriptedReceipt {
        let starts = ["2026-01-10", "2026-02-10", "2026-03-10", "2026-04-10"]
        let transactions = (0..<3).map { index in
            ScriptedTransaction(transactionId: "\(prefix)\(index)", originalTransactionId: "\(prefix)0", productId: "monthly.1m",
                                purchaseDate: at(starts[index] + "T00:00:00Z"), expiresDate: at(starts[index + 1] + "T00:00:00Z"),
                                appAccountToken: appAccountToken, subscriptionGroupIdentifier: "g")
        }
        return ScriptedReceipt(environment: environment, transactions: transactions,
                               renewals: [ScriptedRenewal(originalTransactionId: "\(prefix)0", productId: "monthly.1m")])
    }

    package static let appAccountToken = "3f1c2e9a-7b4d-4c1e-9a2b-5d6e7f8a9b0c"

    package static var script: SimulatorScript {
        SimulatorScript(bundleId: bundleId, appAppleId: appAppleId, sharedSecret: sharedSecret, receipts: [
            production: monthlyHistory("1000"),
            sandbox: monthlyHistory("2000", environment: .sandbox),
            flaky: { var r = monthlyHistory("3000"); r.unavailableTimes = 2; return r }(),
            down: ScriptedReceipt(status: 21005),
            tokenBound: monthlyHistory("4000", appAccountToken: appAccountToken),
        ])
    }
}
