import Foundation
import Testing
import IssueCatalog
import Entitle
import GatewayStore
import TestSupport
import Wire

/// A backend the contract suites run against: SQLite, and PostgreSQL when `scripts/test` started
/// its throw-away cluster (`ISSUE_GATEWAY_TEST_DATABASE_URL`; `PostgresAvailabilityTests` fails when
/// that is set and unreachable, and says it skipped when it is not set).
struct StoreBackend: Sendable, CustomTestStringConvertible {
    let name: String
    let open: @Sendable () throws -> OpenedStore

    var testDescription: String { name }

    static let all: [StoreBackend] = TemporaryPostgresSchema.clusterURL == nil ? [.sqlite] : [.sqlite, .postgres]

    static let sqlite = StoreBackend(name: "SQLite") {
        let database = TemporaryDatabase()
        return OpenedStore(store: try database.open(), resources: database)
    }

    /// A fresh schema on the throw-away cluster for every store.
    static let postgres = StoreBackend(name: "PostgreSQL") {
        let schema = try TemporaryPostgresSchema()
        return OpenedStore(store: try schema.open(), resources: schema)
    }
}

extension StoreBackend {
    /// A fresh store holding `Fixtures.catalog`.
    func openWithCatalog() throws -> OpenedStore {
        let opened = try open()
        try opened.store.importCatalog(Fixtures.catalog)
        return opened
    }
}

/// A store under test and what must live as long as it (a temporary file, a scratch schema).
struct OpenedStore {
    let store: any GatewayStore
    let resources: AnyObject
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
                            environment: StoreEnvironment = .production, token: String? = nil) -> Transaction {
        Transaction(environment: environment, transactionId: id, originalTransactionId: original, productId: product,
                    purchaseDate: instant(purchased), expiresDate: expires.map(instant), appAccountToken: token,
                    source: .receipt)
    }
}

/// Runs `count` bodies on threads of their own at once (the cooperative pool has one thread per
/// core), and returns when all have.
func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread { body(index); group.leave() }.start()
    }
    group.wait()
}
