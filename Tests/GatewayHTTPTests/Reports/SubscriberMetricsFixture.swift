import Entitle
@testable import GatewayConfiguration
import GatewayStore
import GatewayTesting
import IssueCatalog
import TestSupport
import Testing
import Wire

/// A gateway on SQLite, or on a fresh PostgreSQL schema when the test cluster is configured, with
/// the harness's catalog and one auto-renewable product of `monthly` in each store; facts go in
/// through the store's ingest (the unit of work every store's intake uses), the series comes out
/// of the route.
struct MetricsBackend: Sendable, CustomTestStringConvertible {
    let name: String
    var testDescription: String { name }

    static let all: [MetricsBackend] = TemporaryPostgresSchema.clusterURL == nil
        ? [MetricsBackend(name: "SQLite")] : [MetricsBackend(name: "SQLite"), MetricsBackend(name: "PostgreSQL")]

    /// The store product id of `monthly`'s auto-renewable product in each store.
    static let product: [Store: String] = [.appStore: "monthly.1m", .googlePlay: "monthly_gp", .stripe: "price_monthly"]

    func gateway() throws -> MetricsGateway {
        let schema = name == "PostgreSQL" ? try TemporaryPostgresSchema() : nil
        let h = try H(store: try schema?.open())
        try h.seedCatalog()
        try h.createProduct("monthly.gp", #"{"kind":"autoRenewable","grants":["monthly"],"subscriptionGroup":"gp-group","level":1,"store":"googlePlay","storeProductId":"monthly_gp"}"#)
        try h.createProduct("monthly.1y", #"{"kind":"autoRenewable","grants":["monthly"],"subscriptionGroup":"monthly-group","level":2}"#)
        try h.createProduct("monthly.web", #"{"kind":"autoRenewable","grants":["monthly"],"subscriptionGroup":"web-group","level":1,"store":"stripe","storeProductId":"price_monthly"}"#)
        return MetricsGateway(h: h, schema: schema)
    }
}

struct MetricsGateway {
    let h: H
    let schema: TemporaryPostgresSchema?

    static func at(_ text: String) -> Instant { Instant(rfc3339: text)! }

    /// A subscription period of `monthly`'s product in `store`.
    static func period(_ store: Store = .appStore, _ id: String, of original: String, _ from: String, _ to: String,
                       trial: Bool = false, refunded: String? = nil) -> Transaction {
        Transaction(store: store, environment: .production, transactionId: id, originalTransactionId: original,
                    productId: MetricsBackend.product[store]!, purchaseDate: at(from), expiresDate: at(to),
                    revocationDate: refunded.map(at), offer: trial ? .freeTrial : nil, source: .notificationV2)
    }

    /// A new account holding `transactions` and `renewals`; its id.
    @discardableResult
    func account(_ transactions: [Transaction], renewals: [RenewalInfo] = []) throws -> String {
        let id = try h.createAccount().id
        try ingest(id, transactions, renewals: renewals)
        return id
    }

    func ingest(_ accountId: String?, _ transactions: [Transaction], renewals: [RenewalInfo] = []) throws {
        let batch = IngestBatch(accountId: accountId, transactions: transactions, renewalInfos: renewals, at: h.clock.now())
        let outcome = try h.runtime.core.store.ingest(batch, policy: .transfer)
        guard case .stored = outcome else { throw MetricsTestError.notStored("\(outcome)") }
    }

    /// `GET /v1/publications/monthly/metrics?<query>` as admin.
    func metrics(_ query: String, publication: String = "monthly", as secret: String = H.adminKey) throws -> APIResponse {
        try h.client.get("/v1/publications/\(publication)/metrics?\(query)", as: secret)
    }

    /// The points of a 200 answer, by start day.
    func points(_ query: String) throws -> [String: [String: Any]] {
        let response = try metrics(query)
        guard response.status == 200, let points = response.json["points"] as? [[String: Any]] else {
            throw MetricsTestError.notStored("\(response.status) \(response.text)")
        }
        return Dictionary(uniqueKeysWithValues: points.map { ($0["start"] as! String, $0) })
    }
}

enum MetricsTestError: Error { case notStored(String) }

extension H {
    func createProduct(_ id: String, _ body: String) throws {
        let response = try client.put("/v1/products/\(id)", as: H.adminKey, json: body)
        guard response.status == 201 else { throw MetricsTestError.notStored("product \(id): \(response.status) \(response.text)") }
    }
}

/// One point's counts, in the order `[active, trials, new, churned, reactivated]`.
func counts(_ point: [String: Any]?) -> [Int] {
    guard let point else { return [] }
    return ["active", "trials", "new", "churned", "reactivated"].map { point[$0] as? Int ?? -1 }
}
