import AppStoreKit
import AppStoreSimulator
import DownloadTokens
import Entitle
import Foundation
@testable import GatewayConfiguration
import GatewayStore
import HTTPServer
import IssueCatalog
import SQLiteStore
import TestSupport
import Synchronization
import Testing
import Wire

/// A real gateway on an ephemeral port, with a temporary SQLite store and a test clock, whose
/// App Store is the simulator on another ephemeral port: the gateway's verifyReceipt client
/// talks HTTP to it (short timeouts and backoff) and its V2 verifier trusts the simulator's root.
/// Tests talk to the gateway over sockets, as a reader app would.
package final class AppStoreFlow: @unchecked Sendable {
    package struct Response {
        package var status: Int
        package var text: String
        package var headers: [(String, String)] = []
        package func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
        package var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:] }
        package var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        package var appStoreStatus: Int? { (json["error"] as? [String: Any])?["appStoreStatus"] as? Int }
    }

    package struct Reader {
        package var id: String
        package var token: String
    }

    package static let adminKey = "flow-admin-key-0123456789abcdef"

    package let database = TemporaryDatabase()
    package let store: any GatewayStore
    package let clock = TestClock(FlowFixtures.now)
    package let authority: TestCertificateAuthority
    package let simulator: AppStoreSimulator
    /// Server API requests the gateway made, by endpoint (`history`, `statuses`, `refunds`, …).
    package let serverAPIRequests = RequestTally()
    package let apple: AppStoreSimulatorServer
    /// False for a peer: the App Store belongs to the flow it was made from.
    private let ownsApple: Bool
    package let runtime: GatewayRuntime
    package let port: Int
    private var stopped = false

    /// `gatewaySecret`: the shared secret the gateway sends and expects in V1 notifications;
    /// `wrapStore`: what the gateway sees of the store (a test's failing wrapper).
    /// `serverAPI`: the gateway holds App Store Server API credentials whose public key the
    /// simulator was given, and calls its Server API; notifications it sends go to
    /// the gateway. `configure` changes the gateway's settings last (its CDN base URL).
    package init(policy: OwnershipPolicy = .transfer, gatewaySecret: String = FlowFixtures.sharedSecret,
         script: SimulatorScript = FlowFixtures.script, serverAPI: Bool = false,
         wrapStore: (any GatewayStore) -> any GatewayStore = { $0 }, store given: (any GatewayStore)? = nil,
         peerOf peer: AppStoreFlow? = nil, configure: (inout Configuration) -> Void = { _ in }) throws {
        store = try given ?? database.open()
        if peer == nil { try store.importCatalog(FlowFixtures.catalog) }
        authority = try peer?.authority ?? TestCertificateAuthority(options: .init(issuedAt: FlowFixtures.at("2025-06-01T00:00:00Z")))
        simulator = peer?.simulator ?? AppStoreSimulator(script: script, authority: authority, clock: clock.now)
        apple = try peer?.apple ?? AppStoreSimulatorServer(simulator: simulator).start()
        ownsApple = peer == nil
        let receipts = VerifyReceiptClient(
            configuration: VerifyReceiptConfiguration(productionURL: apple.productionURL, sandboxURL: apple.sandboxURL,
                                                      sharedSecret: gatewaySecret, requestTimeout: 2, maximumAttempts: 3,
                                                      initialBackoff: 0.01, maximumBackoff: 0.02),
            log: { _ in })
        let verifier = try SignedDataVerifier(
            roots: authority.trustedRoots,
            policy: SignedDataPolicy(bundleId: FlowFixtures.bundleId, appAppleId: FlowFixtures.appAppleId))
        var serverAPIClient: ServerAPIClient?
        if serverAPI {
            let key = try #require(SigningKey())
            let der = try #require(key.publicKeyDER)
            simulator.configureServerAPI { $0.publicKey = ES256PublicKey(der: der); $0.keyId = "FLOWKEY" }
            serverAPIClient = ServerAPIClient(
                configuration: ServerAPIConfiguration(productionURL: apple.serverAPIProductionURL, sandboxURL: apple.serverAPISandboxURL,
                                                      requestTimeout: 2, deadline: 5, initialBackoff: 0.01, maximumBackoff: 0.02),
                credentials: ServerAPICredentials(keyId: "FLOWKEY", issuerId: "flow-issuer", bundleId: FlowFixtures.bundleId, key: key),
                verifier: verifier, clock: { [clock] in clock.now() },
                observe: { [serverAPIRequests] attempt in serverAPIRequests.count(attempt.endpoint) })
        }
        var configuration = Configuration(threads: 1)
        configuration.adminKey = Self.adminKey
        configuration.tokenKeys = try TokenKeySet(parsing: "k1:" + Base64URL.encode(Data(repeating: 7, count: 32)))
        configuration.transferPolicy = policy
        configuration.appStoreSharedSecret = gatewaySecret
        configuration.bundleId = FlowFixtures.bundleId
        configuration.appAppleId = FlowFixtures.appAppleId
        configuration.storeThreads = 2
        configuration.appStoreThreads = 2
        configure(&configuration)
        var http = HTTPServerConfiguration()
        http.host = "127.0.0.1"
        http.port = 0
        http.threads = 1
        runtime = try GatewayRuntime.make(
            configuration: configuration, store: wrapStore(store), clock: clock,
            appStore: AppStoreServices(receipts: receipts, signedData: verifier, sharedSecret: gatewaySecret,
                                       bundleId: FlowFixtures.bundleId, serverAPI: serverAPIClient),
            http: http, pollerSettings: .standard)
        port = try runtime.server.start()
        let notifications = URL(string: "http://127.0.0.1:\(port)/v1/appstore/notifications")!
        simulator.configureServerAPI { $0.notificationURL = notifications }
    }

    deinit { stop() }

    package func stop() {
        guard !stopped else { return }
        stopped = true
        runtime.server.shutdown()
        runtime.server.waitUntilStopped()
        runtime.changeFeedFollower?.stop()
        runtime.changeFeedFollower?.join()
        if ownsApple { apple.stop() }
    }

    // MARK: HTTP

    package func call(_ method: String, _ path: String, body: Data? = nil, bearer: String? = AppStoreFlow.adminKey) throws -> Response {
        let client = try TestClient(port: port)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: gateway\r\nConnection: close\r\n"
        if let bearer { head += "Authorization: Bearer \(bearer)\r\n" }
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        client.send(Array((head + "\r\n").utf8) + Array(body ?? Data()))
        let response = try client.readResponse()
        return Response(status: response.status, text: response.text, headers: response.headers)
    }

    package func post(_ path: String, json: [String: Any], bearer: String? = AppStoreFlow.adminKey) throws -> Response {
        try call("POST", path, body: try JSONSerialization.data(withJSONObject: json), bearer: bearer)
    }

    // MARK: Readers

    package func newReader(appAccountToken: String? = nil) throws -> Reader {
        let answer = try post("/v1/accounts", json: appAccountToken.map { ["appAccountToken": $0] } ?? [:], bearer: nil)
        guard answer.status == 201, let id = answer.json["accountId"] as? String, let token = answer.json["accountToken"] as? String else {
            throw FlowError.unexpected(answer.text)
        }
        return Reader(id: id, token: token)
    }

    /// A new reader who owns the production receipt's subscription (all three issues).
    package func subscribedReader() throws -> Reader {
        let (reader, answer) = try newReader(sending: FlowFixtures.production)
        try #require(answer.status == 200)
        return reader
    }

    /// A new reader and the gateway's answer to the receipt the reader sends first.
    package func newReader(sending receiptData: String) throws -> (Reader, Response) {
        let reader = try newReader()
        return (reader, try sendReceipt(receiptData, for: reader))
    }

    package func sendReceipt(_ receiptData: String, for reader: Reader) throws -> Response {
        try post("/v1/accounts/\(reader.id)/receipts", json: ["receiptData": receiptData], bearer: reader.token)
    }

    package func sendSignedTransactions(_ signed: [String], for reader: Reader) throws -> Response {
        try post("/v1/accounts/\(reader.id)/receipts", json: ["signedTransactions": signed], bearer: reader.token)
    }

    package func notify(_ body: Data) throws -> Response {
        try call("POST", "/v1/appstore/notifications", body: body, bearer: nil)
    }

    /// Ids of the issues the reader may download now.
    package func entitledIssues(_ reader: Reader) throws -> [String] {
        let answer = try call("GET", "/v1/accounts/\(reader.id)/issues?entitled=true", bearer: reader.token)
        guard answer.status == 200, let issues = answer.json["issues"] as? [[String: Any]] else { throw FlowError.unexpected(answer.text) }
        return issues.compactMap { $0["id"] as? String }.sorted()
    }

    /// The reader's subscriptions as the entitlements route renders them.
    package func subscriptions(_ reader: Reader) throws -> [[String: Any]] {
        let answer = try call("GET", "/v1/accounts/\(reader.id)/entitlements", bearer: reader.token)
        guard answer.status == 200, let subscriptions = answer.json["subscriptions"] as? [[String: Any]] else {
            throw FlowError.unexpected(answer.text)
        }
        return subscriptions
    }

    package func tokenStatus(_ reader: Reader, issue: String) throws -> Response {
        try call("POST", "/v1/accounts/\(reader.id)/publications/monthly/issues/\(issue)/token", body: Data("{}".utf8),
                 bearer: reader.token)
    }

    /// What the store holds for the reader: the "nothing stored" checks.
    package func storedTransactionIds(_ reader: Reader) throws -> [String] {
        try store.accountFacts(reader.id).transactions.map(\.transactionId).sorted()
    }

    package enum FlowError: Error { case unexpected(String) }
}

package extension AppStoreFlow.Response {
    /// The issue ids of an entitlements-bearing answer's subscriptions, for quick assertions.
    package var subscriptionIds: [String] {
        ((json["subscriptions"] as? [[String: Any]]) ?? []).compactMap { $0["originalTransactionId"] as? String }.sorted()
    }
}

/// Requests counted by name, from any thread.
package final class RequestTally: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    package func count(_ name: String) { counts.withLock { $0[name, default: 0] += 1 } }

    package subscript(_ name: String) -> Int { counts.withLock { $0[name] ?? 0 } }
}
