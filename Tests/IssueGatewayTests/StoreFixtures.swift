import Foundation
import Testing
import IssueCatalog
import Entitle
@testable import IssueGateway
import Wire

/// A fresh database file in its own temporary folder, removed when the value is dropped.
final class TemporaryDatabase {
    let folder: URL
    var path: String { folder.appendingPathComponent("nested/gateway.sqlite").path }

    init() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("issue-gateway-\(UUID().uuidString)")
    }

    func open() throws -> SQLiteStore { try SQLiteStore(path: path) }

    deinit { try? FileManager.default.removeItem(at: folder) }
}

enum Fixtures {
    static let t0 = Instant(rfc3339: "2026-01-01T00:00:00Z")!

    static func instant(_ text: String) -> Instant { Instant(rfc3339: text)! }

    static let catalog = Catalog(
        publications: [Publication(id: "monthly", title: "The Monthly"), Publication(id: "weekly", title: "Weekly")],
        products: [
            Product(id: "monthly.1m", kind: .autoRenewable, grants: ["monthly"], subscriptionGroup: "g", level: 1,
                    platform: "ios"),
            Product(id: "bundle", kind: .nonRenewing, grants: ["monthly", "weekly"], duration: ISODuration("P3M")),
            Product(id: "monthly.2012-02", kind: .issue, grants: ["monthly"],
                    issue: IssueRef(publicationId: "monthly", issueId: "2012-02"),
                    discontinuedAt: instant("2020-01-01T00:00:00Z")),
        ],
        issues: [
            Issue(publicationId: "monthly", id: "2012-02", title: "February 2012",
                  publishedAt: instant("2012-02-01T00:00:00-05:00"),
                  assets: [Asset(path: "/content/monthly/2012-02/issue.pdf", bytes: 10, sha256: String(repeating: "a", count: 64)),
                           Asset(path: "/content/monthly/2012-02/cover.jpg")]),
            Issue(publicationId: "monthly", id: "2012-03", title: "March 2012",
                  publishedAt: instant("2012-03-01T00:00:00-05:00"), free: true,
                  retractedAt: instant("2013-01-01T00:00:00Z")),
            Issue(publicationId: "weekly", id: "w1", title: "Week 1", publishedAt: instant("2024-01-04T00:00:00Z")),
        ])

    static func account(_ id: String, appAccountToken: String? = nil) -> Account {
        Account(id: id, tokenHash: "hash-\(id)", appAccountToken: appAccountToken, createdAt: t0)
    }

    static func transaction(_ id: String, original: String, product: String = "monthly.1m",
                            purchased: String = "2026-01-01T00:00:00Z", expires: String? = "2026-02-01T00:00:00Z",
                            environment: AppStoreEnvironment = .production, token: String? = nil) -> Transaction {
        Transaction(environment: environment, transactionId: id, originalTransactionId: original, productId: product,
                    purchaseDate: instant(purchased), expiresDate: expires.map(instant), appAccountToken: token,
                    source: .verifyReceipt)
    }

    /// Keeps whichever side carries a revocation, else the incoming one: enough to see the merge applied.
    static let merge = FactMerge(
        transaction: { stored, incoming in stored.revocationDate != nil && incoming.revocationDate == nil ? stored : incoming },
        renewalInfo: { _, incoming in incoming })
}
