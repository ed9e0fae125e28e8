import Entitle
import Foundation
import IssueCatalog
import OutboundHTTP
import Testing
import TestSupport
import Wire
@testable import AppStoreKit
@testable import AppStoreSimulator

/// The simulator plays the App Store Server API over HTTP: the gateway's client
/// talks to it as to Apple. Token checks, revision paging at 20, 429, 4040010, the "never
/// released" 401, notification history with send attempts and the test notification.
@Suite(.serialized) struct SimulatedServerAPITests {
    static let now = Instant(millisecondsSinceEpoch: 1_770_000_000_000)
    static let bundleId = "org.example.reader"
    static let key = SigningKey()!

    final class World: Sendable {
        let simulator: AppStoreSimulator
        let server: AppStoreSimulatorServer
        let pauses = Recorder<TimeInterval>()
        let verifier: SignedDataVerifier

        init(receipts: [String: ScriptedReceipt], register: Bool = true) throws {
            let authority = try TestCertificateAuthority(options: .init(issuedAt: SimulatedServerAPITests.now.adding(seconds: -3600)))
            simulator = AppStoreSimulator(script: SimulatorScript(bundleId: SimulatedServerAPITests.bundleId, appAppleId: 77,
                                                                  receipts: receipts),
                                          authority: authority, clock: { SimulatedServerAPITests.now })
            if register {
                let der = SimulatedServerAPITests.key.publicKeyDER!
                simulator.configureServerAPI { $0 = ServerAPISettings(publicKey: ES256PublicKey(der: der), keyId: "KEY1", issuerId: "ISS") }
            }
            server = try AppStoreSimulatorServer(simulator: simulator).start()
            verifier = try SignedDataVerifier(roots: authority.trustedRoots,
                                              policy: SignedDataPolicy(bundleId: SimulatedServerAPITests.bundleId, appAppleId: 77),
                                              clock: { SimulatedServerAPITests.now })
        }

        deinit { server.stop() }

        func client(key: SigningKey = SimulatedServerAPITests.key, keyId: String = "KEY1") -> ServerAPIClient {
            ServerAPIClient(configuration: ServerAPIConfiguration(productionURL: server.serverAPIProductionURL,
                                                                  sandboxURL: server.serverAPISandboxURL, requestTimeout: 5,
                                                                  deadline: 10, initialBackoff: 0.01, maximumBackoff: 0.02),
                            credentials: ServerAPICredentials(keyId: keyId, issuerId: "ISS", bundleId: SimulatedServerAPITests.bundleId,
                                                              key: key),
                            verifier: verifier, clock: { SimulatedServerAPITests.now }, pause: { [pauses] in pauses.append($0) })
        }
    }

    static func months(_ prefix: String, count: Int, environment: StoreEnvironment = .production) -> ScriptedReceipt {
        let transactions = (0..<count).map { index in
            ScriptedTransaction(transactionId: "\(prefix)\(index)", originalTransactionId: "\(prefix)0", productId: "monthly",
                                purchaseDate: now.adding(seconds: Int64(index - count) * 30 * 86_400),
                                expiresDate: now.adding(seconds: Int64(index - count + 1) * 30 * 86_400), subscriptionGroupIdentifier: "g")
        }
        return ScriptedReceipt(environment: environment, transactions: transactions,
                               renewals: [ScriptedRenewal(originalTransactionId: "\(prefix)0", productId: "monthly")])
    }

    static func ids(_ history: ServerAPIHistory) throws -> [String] {
        try history.transactions.map { try AppStoreParsers.signedTransaction(payload: $0.payload).transactionId }
    }

    @Test func historyIsPagedByRevisionAt20Items() throws {
        let world = try World(receipts: ["r": Self.months("5", count: 45)])
        let history = try world.client().transactionHistory("544")
        #expect(history.environment == .production)
        #expect(try Self.ids(history) == (0..<45).map { "5\($0)" })
    }

    @Test func aTokenFromAnotherKeyOrNoneIsABare401() throws {
        let world = try World(receipts: ["r": Self.months("5", count: 2)])
        #expect(throws: ServerAPIFailure.unauthorized) { try world.client(key: SigningKey()!).transactionHistory("50") }
        #expect(throws: ServerAPIFailure.unauthorized) { try world.client(keyId: "OTHER").transactionHistory("50") }
        let raw = try URLSessionExchange().send(
            method: "GET", url: world.server.serverAPIProductionURL.appendingPathComponent("inApps/v1/transactions/50"),
            headers: [:], body: nil, timeout: 5, maximumResponseBytes: 1 << 16)
        #expect(raw.statusCode == 401)
        #expect(raw.body.isEmpty)
    }

    @Test func unknownIdsAre4040010InEveryEnvironment() throws {
        let world = try World(receipts: ["r": Self.months("5", count: 2)])
        #expect(throws: ServerAPIFailure.notFound) { try world.client().transactionInfo("999") }
    }

    @Test func aNeverReleasedAppIsServedFromTheSandboxAfterProductionsBare401() throws {
        let world = try World(receipts: ["r": Self.months("6", count: 3, environment: .sandbox)])
        world.simulator.configureServerAPI { $0.neverReleased = true }
        let found = try world.client().subscriptionStatuses("62")
        #expect(found.environment == .sandbox)
        #expect(found.statuses.map(\.originalTransactionId) == ["60"])
        #expect(found.statuses.first?.status == 2, "the last period ended before now")
    }

    @Test func rateLimitingAnswers429WithRetryAfterInMilliseconds() throws {
        let world = try World(receipts: ["r": Self.months("5", count: 2)])
        world.simulator.configureServerAPI { $0.rateLimitedRequests = 2; $0.retryAfterMilliseconds = 300 }
        let info = try world.client().transactionInfo("51")
        #expect(try AppStoreParsers.signedTransaction(payload: info.payload).transactionId == "51")
        #expect(world.pauses.values == [0.3, 0.3])
    }

    @Test func refundsExtensionsAndStatusesFollowTheScript() throws {
        let world = try World(receipts: ["r": Self.months("5", count: 3)])
        try world.simulator.refund(transactionId: "52", in: "r", at: Self.now)
        let client = world.client()
        #expect(try Self.ids(try client.refundHistory("50")) == ["52"])
        #expect(try client.subscriptionStatuses("50").statuses.first?.status == 5)
        let extended = try client.extendRenewalDate("50", ServerAPIExtension(days: 7, reasonCode: 1, requestIdentifier: "x"))
        #expect(extended.result.success)
        let newest = try #require(world.simulator.receipt("r")?.transactions.first { $0.transactionId == "52" })
        #expect(newest.expiresDate == Self.now.adding(seconds: 7 * 86_400))
        #expect(throws: ServerAPIFailure.rejected(httpStatus: 400, errorCode: 4000009)) {
            try client.extendRenewalDate("50", ServerAPIExtension(days: 91, reasonCode: 1, requestIdentifier: "y"))
        }
    }

    @Test func notificationHistoryKeepsSendAttemptsAndFiltersFailures() throws {
        let world = try World(receipts: ["r": Self.months("5", count: 2)])
        let dropped = try world.simulator.sendNotification("r", type: "DID_RENEW", drop: true)
        let delivered = try world.simulator.sendNotification("r", type: "DID_RENEW", to: URL(string: "http://127.0.0.1:1/")!)
        #expect(delivered.answer == nil, "nothing listens on port 1")
        for index in 0..<21 { try world.simulator.sendNotification("r", type: "SUBSCRIBED", notificationUUID: "bulk-\(index)", drop: true) }
        var records: [ServerAPINotificationRecord] = []
        let window = ServerAPINotificationQuery(start: Self.now.adding(seconds: -60), end: Self.now, notificationType: "DID_RENEW")
        try world.client().notificationHistory(window, in: .production) { records += $0 }
        #expect(records.count == 2)
        #expect(records.first?.sendAttemptResults == ["UNSUCCESSFUL_HTTP_RESPONSE_CODE"])
        #expect(records.last?.sendAttemptResults == ["NO_RESPONSE"])
        var all: [ServerAPINotificationRecord] = []
        try world.client().notificationHistory(.init(start: Self.now.adding(seconds: -60), end: Self.now, onlyFailures: true),
                                               in: .production) { all += $0 }
        #expect(all.count == 23, "two pages of 20 and 3")
        let payload = try #require(records.first?.signedPayload)
        let verified = try world.verifier.verifyNotification(payload)
        #expect(try AppStoreParsers.notificationV2(payload: verified.notification.payload).notificationUUID == dropped.notificationUUID)
        var sandbox: [ServerAPINotificationRecord] = []
        try world.client().notificationHistory(window, in: .sandbox) { sandbox += $0 }
        #expect(sandbox.isEmpty)
    }

    @Test func aTestNotificationIsAnsweredThenDelivered() throws {
        let world = try World(receipts: [:])
        let gateway = try LocalHTTPListener { _ in .respond(status: 200, body: Data()) }
        defer { gateway.stop() }
        world.simulator.configureServerAPI { $0.notificationURL = URL(string: "http://127.0.0.1:\(gateway.port)/n")! }
        let token = try world.client().requestTestNotification()
        #expect(!token.isEmpty)
        let request = try #require(gateway.requests(atLeast: 1, timeout: 10).first)
        let signedPayload = try #require((try JSONSerialization.jsonObject(with: request.body) as? [String: String])?["signedPayload"])
        let verified = try world.verifier.verifyNotification(signedPayload)
        #expect(try AppStoreParsers.notificationV2(payload: verified.notification.payload).notificationType == "TEST")
    }
}
