import DownloadTokens
import Entitle
import Foundation
@testable import GatewayConfiguration
import GatewayStore
import HTTPServer
import HTTPServerTesting
import IssueCatalog
import SQLiteStore
import StripeKit
import TestSupport
import Wire

/// What the suites of this target call the harness.
package typealias H = GatewayHarness

/// A whole gateway (`GatewayRuntime`, as `issue-gateway serve` builds it) over a fresh SQLite
/// file, with a test clock and known secrets, reached through its frozen router in process
/// (`.inProcess`, the default: for tests about routes) or on an ephemeral port (`.socket`: for
/// tests about what crosses the wire). No status poller, and App Store URLs that lead nowhere:
/// these tests never reach Apple. Stripe's API, when a test gives one, is a simulator in process.
package final class GatewayHarness: @unchecked Sendable {
    package static let adminKey = "test-admin-key-0123456789abcdefghijklmnop"
    package static let tokenKid = "k1"
    package static let tokenSecret = [UInt8](repeating: 0x5a, count: 32)
    /// The signing key as `ISSUE_GATEWAY_TOKEN_KEYS` and PyJWT would take it.
    package static let tokenSecretBase64URL = Data(tokenSecret).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
    package static let start = Instant(rfc3339: "2026-03-01T00:00:00Z")!
    package static let cdnBaseURL = "http://cdn.test"

    package let database = TemporaryDatabase()
    package let clock = TestClock(GatewayHarness.start)
    package enum Transport { case inProcess, socket }

    package let runtime: GatewayRuntime
    package let client: APIClient
    private let boundPort: Int?
    private let inProcess: InProcessClient?
    private var stopped = false

    /// The server's port; only a `.socket` harness has one.
    package var port: Int {
        guard let boundPort else { preconditionFailure("this harness runs in process; use GatewayHarness(transport: .socket)") }
        return boundPort
    }

    /// `wrapStore` may put a test double around the real store; `store`, when given, is used
    /// instead of the SQLite file (a PostgreSQL store shared with another harness).
    package init(transport: Transport = .inProcess, wrapStore: (SQLiteStore) -> any GatewayStore = { $0 },
         store: (any GatewayStore)? = nil, stripeAPI: (any StripeAPI)? = nil,
         identityVerifier: (any IdentityVerifying)? = nil,
         configure: (inout Configuration) -> Void = { _ in }) throws {
        var configuration = Configuration(threads: 2)
        configuration.catalogFolder = nil
        configuration.adminKey = Self.adminKey
        configuration.tokenKeys = try TokenKeySet(keys: [TokenKey(kid: Self.tokenKid, secret: Self.tokenSecret)])
        configuration.cdnBaseURL = Self.cdnBaseURL
        configuration.appStoreProductionURL = "http://127.0.0.1:9/verifyReceipt"
        configuration.appStoreSandboxURL = "http://127.0.0.1:9/verifyReceipt"
        configuration.storeThreads = 2
        configuration.appStoreThreads = 2
        // Scenarios move the test clock over months and years between a reader's requests: the
        // longest idle time keeps their sessions (E34) alive; idleness is tested with its own.
        configuration.sessionIdleDays = ConfigurationLimits.sessionIdleDays.upperBound
        configure(&configuration)
        var http = HTTPServerConfiguration()
        http.host = "127.0.0.1"
        http.port = 0
        http.threads = 2
        http.timerResolution = .milliseconds(20)
        http.lingerTimeout = .milliseconds(200)
        http.shutdownGracePeriod = .seconds(2)
        runtime = try GatewayRuntime.make(configuration: configuration, store: try store ?? wrapStore(try database.open()),
                                          clock: clock,
                                          http: http, pollerSettings: nil, stripeAPI: stripeAPI,
                                          identityVerifier: identityVerifier)
        switch transport {
        case .socket:
            let port = try runtime.server.start()
            boundPort = port
            inProcess = nil
            client = APIClient(port: port)
        case .inProcess:
            let inProcess = InProcessClient(router: runtime.api.makeRouter(), configuration: runtime.server.configuration)
            boundPort = nil
            self.inProcess = inProcess
            client = APIClient(inProcess)
        }
    }

    package func stop() {
        guard !stopped else { return }
        stopped = true
        runtime.server.shutdown()
        runtime.server.waitUntilStopped()
        inProcess?.shutdown()
    }

    deinit { stop() }

    // MARK: Fixtures through the API

    /// A catalog as an editor would build it, every step through the API as admin:
    /// `monthly` (2026-01 paid and published, 2026-02 free and published, 2026-04 scheduled) and
    /// `weekly` (w1 published); products `monthly.1m` (auto-renewable) and `monthly.old`
    /// (discontinued in 2025).
    package func seedCatalog() throws {
        try expectStatus(201, client.put("/v1/publications/monthly", as: Self.adminKey, json: #"{"title":"The Monthly"}"#))
        try expectStatus(201, client.put("/v1/publications/weekly", as: Self.adminKey, json: #"{"title":"The Weekly"}"#))
        for (publication, body) in Self.issues {
            try expectStatus(201, client.post("/v1/publications/\(publication)/issues", as: Self.adminKey, json: body))
        }
        try expectStatus(201, client.put("/v1/products/monthly.1m", as: Self.adminKey, json: """
            {"kind":"autoRenewable","grants":["monthly"],"subscriptionGroup":"monthly-group","level":1,"platform":"ios"}
            """))
        try expectStatus(201, client.put("/v1/products/monthly.old", as: Self.adminKey, json: """
            {"kind":"nonRenewing","grants":["monthly"],"duration":"P3M","discontinuedAt":"2025-01-01T00:00:00Z"}
            """))
    }

    package static func issueBody(id: String, publishedAt: String, free: Bool = false, paths: [String],
                          title: String? = nil) -> String {
        let assets = paths.map { #"{"path":"\#($0)","bytes":1234,"sha256":"\#(String(repeating: "ab", count: 32))"}"# }
        return #"{"id":"\#(id)","title":"\#(title ?? "Issue " + id)","publishedAt":"\#(publishedAt)","free":\#(free),"assets":[\#(assets.joined(separator: ","))]}"#
    }

    package static let paidPaths = ["/content/monthly/2026-01/issue.pdf", "/content/monthly/2026-01/cover.jpg"]
    package static let issues: [(String, String)] = [
        ("monthly", issueBody(id: "2026-01", publishedAt: "2026-01-01T00:00:00Z", paths: paidPaths)),
        ("monthly", issueBody(id: "2026-02", publishedAt: "2026-02-01T00:00:00-05:00", free: true,
                              paths: ["/content/monthly/2026-02/issue.pdf"])),
        ("monthly", issueBody(id: "2026-04", publishedAt: "2026-04-01T00:00:00Z", paths: ["/content/monthly/2026-04/issue.pdf"])),
        ("weekly", issueBody(id: "w1", publishedAt: "2026-02-20T00:00:00Z", paths: ["/content/weekly/w1/issue.pdf"])),
    ]

    /// A new reader account: its id and bearer token.
    package func createAccount() throws -> (id: String, token: String) {
        let response = try client.post("/v1/accounts")
        try expectStatus(201, response)
        guard let id = response.json["accountId"] as? String, let token = response.json["accountToken"] as? String else {
            throw HarnessError.unexpected("POST /v1/accounts answered \(response.text)")
        }
        return (id, token)
    }

    /// A new editor or service key's secret and id.
    package func createKey(_ body: String) throws -> (id: String, secret: String) {
        let response = try client.post("/v1/keys", as: Self.adminKey, json: body)
        try expectStatus(201, response)
        guard let id = response.json["keyId"] as? String, let secret = response.json["key"] as? String else {
            throw HarnessError.unexpected("POST /v1/keys answered \(response.text)")
        }
        return (id, secret)
    }

    /// Gives `accountId` a `monthly.1m` subscription from 2026-01-15 to 2026-03-15, stored as the
    /// App Store ingestion stores verified facts (verifying them is the App Store tests' business).
    package func subscribe(_ accountId: String, original: String = "sub-1") throws {
        let transaction = Transaction(environment: .production, transactionId: original, originalTransactionId: original,
                                      productId: "monthly.1m", purchaseDate: Instant(rfc3339: "2026-01-15T00:00:00Z")!,
                                      expiresDate: Instant(rfc3339: "2026-03-15T00:00:00Z")!, source: .receipt)
        try store(VerifiedFacts(transactions: [transaction]), for: accountId)
    }

    /// Stores App Store facts for the account as the verified-facts path does; a refusal (E4) fails.
    package func store(_ facts: VerifiedFacts, for accountId: String) throws {
        do {
            try runtime.core.intake.facts.save(facts, for: accountId)
        } catch .ownedByOtherAccount {
            throw HarnessError.unexpected("the facts were refused (E4)")
        } catch {
            throw HarnessError.unexpected("storing facts failed: \(error.message)")
        }
    }

    /// A download token for one issue, through the API.
    package func token(for account: (id: String, token: String), publication: String = "monthly", issue: String) throws -> APIResponse {
        try client.post("/v1/accounts/\(account.id)/publications/\(publication)/issues/\(issue)/token", as: account.token)
    }

    private func expectStatus(_ status: Int, _ response: APIResponse) throws {
        guard response.status == status else {
            throw HarnessError.unexpected("expected \(status), got \(response.status): \(response.text)")
        }
    }
}

package enum HarnessError: Error, CustomStringConvertible {
    case unexpected(String)
    package var description: String {
        switch self { case .unexpected(let text): return text }
    }
}
