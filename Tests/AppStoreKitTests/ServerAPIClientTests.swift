import Entitle
import Foundation
import IssueCatalog
import Testing
import Wire
@testable import AppStoreKit
@testable import AppStoreSimulator

/// The App Store Server API client (appstore.md "App Store Server API") against a
/// scripted transport: the token, environment fallback, 429 and retries within the deadline,
/// paging, and E2 for every signed item.
@Suite struct ServerAPIClientTests {
    static let now = Instant(millisecondsSinceEpoch: 1_770_000_000_000)
    static let bundleId = "org.example.reader"
    static let authority = try! TestCertificateAuthority(options: .init(issuedAt: now.adding(seconds: -3600)))
    static let key = SigningKey()!
    static let configuration = ServerAPIConfiguration(
        productionURL: URL(string: "https://production.test")!, sandboxURL: URL(string: "https://sandbox.test/prefix")!,
        deadline: 30, maximumAttempts: 4, initialBackoff: 1, maximumBackoff: 4, maximumPages: 3)

    struct Run {
        let client: ServerAPIClient
        let api: ScriptedServerAPI
        let clock: SteppingClock
    }

    func run(_ script: [ScriptedServerAPI.Answer], configuration: ServerAPIConfiguration = configuration) throws -> Run {
        let api = ScriptedServerAPI(script)
        let clock = SteppingClock(Self.now)
        let verifier = try SignedDataVerifier(roots: Self.authority.trustedRoots,
                                              policy: SignedDataPolicy(bundleId: Self.bundleId), clock: { Self.now })
        let credentials = ServerAPICredentials(keyId: "KEY123", issuerId: "issuer-uuid", bundleId: Self.bundleId, key: Self.key)
        let client = ServerAPIClient(configuration: configuration, credentials: credentials, verifier: verifier, transport: api,
                                     clock: clock.now, pause: clock.pause)
        return Run(client: client, api: api, clock: clock)
    }

    static func signed(_ id: String, environment: String = "Production", bundleId: String = bundleId) -> String {
        SimulatedAppStoreSigner(authority: authority, bundleId: bundleId, appAppleId: 1, environment: environment)
            .signedTransaction(["transactionId": id, "originalTransactionId": "100", "productId": "monthly",
                                "purchaseDate": now.millisecondsSinceEpoch], signedDate: now)!
    }

    static func historyPage(_ ids: [String], environment: String = "Production", hasMore: Bool = false,
                            revision: String = "r1") -> String {
        let items = ids.map { "\"\(signed($0, environment: environment))\"" }.joined(separator: ",")
        return #"{"revision":"\#(revision)","hasMore":\#(hasMore),"bundleId":"\#(bundleId)","environment":"\#(environment)","signedTransactions":[\#(items)]}"#
    }

    static func transactionIds(_ history: ServerAPIHistory) throws -> [String] {
        try history.transactions.map { try AppStoreParsers.signedTransaction(payload: $0.payload).transactionId }
    }

    // MARK: The token

    @Test func everyRequestCarriesAFreshES256TokenWithApplesClaims() throws {
        let run = try run([.ok(Self.historyPage(["1"]))])
        _ = try run.client.transactionHistory("1")
        let authorization = try #require(run.api.requests.first?.headers["Authorization"])
        #expect(authorization.hasPrefix("Bearer "))
        let jws = try CompactJWS(splitting: String(authorization.dropFirst(7)), maximumBytes: 4096)
        let header = try #require(try JSONParser().parse(bytes: jws.header).objectValue)
        #expect(header["alg"]?.stringValue == "ES256")
        #expect(header["kid"]?.stringValue == "KEY123")
        #expect(header["typ"]?.stringValue == "JWT")
        let claims = try #require(try JSONParser().parse(bytes: jws.payload).objectValue)
        #expect(claims["iss"]?.stringValue == "issuer-uuid")
        #expect(claims["aud"]?.stringValue == "appstoreconnect-v1")
        #expect(claims["bid"]?.stringValue == Self.bundleId)
        let iat = try #require(claims["iat"]?.integerValue)
        #expect(iat == Self.now.millisecondsSinceEpoch / 1000)
        #expect(claims["exp"]?.integerValue == iat + 300)
        #expect(jws.signature.count == 64, "raw r‖s, not DER")
        let der = try #require(Self.key.publicKeyDER)
        let publicKey = try #require(ES256PublicKey(der: der))
        #expect(publicKey.verify(signature: Data(jws.signature), message: Data(jws.signingInput)))
        #expect(!publicKey.verify(signature: Data(jws.signature), message: Data(jws.signingInput + [0x41])))
    }

    @Test func theP8KeyIsReadFromItsPathAndAWrongFileIsAClearError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("p8-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("AuthKey.p8").path
        try Data(try #require(Self.key.pkcs8PEM).utf8).write(to: URL(fileURLWithPath: good))
        let loaded = try ServerAPICredentials.load(keyId: "K", issuerId: "I", bundleId: "b", privateKeyPath: good)
        #expect(loaded.key.publicKeyDER == Self.key.publicKeyDER)

        let wrongCurve = folder.appendingPathComponent("p384.p8").path
        try Data(try #require(SigningKey(curve: .p384)?.pkcs8PEM).utf8).write(to: URL(fileURLWithPath: wrongCurve))
        let garbage = folder.appendingPathComponent("garbage.p8").path
        try Data("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8).write(to: URL(fileURLWithPath: garbage))
        for (path, expected) in [(wrongCurve, "P-256"), (garbage, "PEM private key"), (folder.appendingPathComponent("none").path, "cannot be read")] {
            do {
                _ = try ServerAPICredentials.load(keyId: "K", issuerId: "I", bundleId: "b", privateKeyPath: path)
                Issue.record("\(path) was accepted")
            } catch {
                #expect(error.description.contains(expected), "\(error.description)")
                #expect(error.description.contains(path))
            }
        }
    }

    // MARK: Environments

    @Test func productionFirstThenSandboxOnTransactionIdNotFound() throws {
        let run = try run([.error(404, code: 4040010), .ok(Self.historyPage(["7"], environment: "Sandbox"))])
        let history = try run.client.transactionHistory("7")
        #expect(run.api.hosts == ["production.test", "sandbox.test"])
        #expect(run.api.requests[1].url.path == "/prefix/inApps/v2/history/7")
        #expect(history.environment == .sandbox)
        #expect(try Self.transactionIds(history) == ["7"])
        #expect(run.clock.pauses.isEmpty, "a fallback is no retry")
    }

    @Test func productionsBare401ForAnAppNeverReleasedFallsBackToSandbox() throws {
        let run = try run([.http(401), .ok(Self.historyPage(["7"], environment: "Sandbox"))])
        #expect(try run.client.transactionHistory("7").environment == .sandbox)
        #expect(run.api.hosts == ["production.test", "sandbox.test"])
    }

    @Test func aBare401FromProductionIsBadCredentialsWhenTheCallIsPinnedThere() throws {
        let run = try run([.http(401)])
        #expect(throws: ServerAPIFailure.unauthorized) { try run.client.transactionHistory("7", in: .production) }
        #expect(run.api.requests.count == 1)
    }

    @Test func a401FromTheSandboxOrWithABodyIsBadCredentials() throws {
        #expect(throws: ServerAPIFailure.unauthorized) { try run([.http(401), .http(401)]).client.transactionHistory("7") }
        #expect(throws: ServerAPIFailure.unauthorized) {
            try run([.http(401, body: #"{"errorCode":4010000}"#)]).client.transactionHistory("7")
        }
    }

    @Test func notFoundInBothEnvironmentsOrInAChosenOne() throws {
        #expect(throws: ServerAPIFailure.notFound) {
            try run([.error(404, code: 4040010), .error(404, code: 4040010)]).client.transactionHistory("7")
        }
        let chosen = try run([.error(404, code: 4040010)])
        #expect(throws: ServerAPIFailure.notFound) { try chosen.client.transactionHistory("7", in: .production) }
        #expect(chosen.api.requests.count == 1)
    }

    // MARK: Retries

    @Test func rateLimitWaitsUntilRetryAfterInMilliseconds() throws {
        let retryAt = Self.now.adding(milliseconds: 2_500)
        let run = try run([.http(429, body: #"{"errorCode":4290000}"#, headers: ["retry-after": "\(retryAt.millisecondsSinceEpoch)"]),
                           .ok(Self.historyPage(["1"]))])
        _ = try run.client.transactionHistory("1")
        #expect(run.clock.pauses == [2.5])
        #expect(run.api.hosts == ["production.test", "production.test"])
    }

    @Test func aRetryAfterPastTheDeadlineFailsAtOnce() throws {
        let run = try run([.http(429, headers: ["retry-after": "\(Self.now.adding(seconds: 60).millisecondsSinceEpoch)"])])
        #expect(throws: ServerAPIFailure.unavailable(.rateLimited(retryAfter: Self.now.adding(seconds: 60)))) {
            try run.client.transactionHistory("1")
        }
        #expect(run.clock.pauses.isEmpty)
    }

    @Test func retryableCodesAndServerErrorsAreRetriedWithBackoff() throws {
        let run = try run([.error(500, code: 5000001), .error(404, code: 4040002), .http(503), .ok(Self.historyPage(["1"]))])
        _ = try run.client.transactionHistory("1")
        #expect(run.clock.pauses == [1, 2, 4])
        for code in [4040004, 4040006] {
            let again = try self.run([.error(404, code: code), .ok(Self.historyPage(["1"]))])
            _ = try again.client.transactionHistory("1")
            #expect(again.api.requests.count == 2)
        }
    }

    @Test func retriesEndAtTheirLimitAndTransportFailuresCount() throws {
        let run = try run([.failure(.timedOut), .failure(.connection("reset")), .error(500, code: 5000001), .http(502)])
        #expect(throws: ServerAPIFailure.unavailable(.httpStatus(502))) { try run.client.transactionHistory("1") }
        #expect(run.api.requests.count == 4)
    }

    @Test func internalErrorAndOtherClientErrorsAreNotRetried() throws {
        let internalError = try run([.error(400, code: 4000006)])
        #expect(throws: ServerAPIFailure.rejected(httpStatus: 400, errorCode: 4000006)) {
            try internalError.client.transactionHistory("1")
        }
        #expect(internalError.api.requests.count == 1)
    }

    @Test func anOversizedAnswerIsRefused() throws {
        let run = try run([.failure(.responseTooLarge(limit: 10))])
        #expect(throws: ServerAPIFailure.responseTooLarge(limit: 10)) { try run.client.transactionHistory("1") }
    }

    // MARK: Paging and verification

    @Test func historyFollowsRevisionsAcrossPages() throws {
        let run = try run([.ok(Self.historyPage(["1", "2"], hasMore: true, revision: "rev-a")),
                           .ok(Self.historyPage(["3"], revision: "rev-b"))])
        #expect(try Self.transactionIds(try run.client.transactionHistory("3")) == ["1", "2", "3"])
        #expect(run.api.requests.map { $0.url.query } == [nil, "revision=rev-a"])
    }

    @Test func pagesBeyondTheLimitAreRefused() throws {
        let page = ScriptedServerAPI.Answer.ok(Self.historyPage(["1"], hasMore: true))
        let run = try run([page, page, page, page])
        #expect(throws: ServerAPIFailure.tooManyPages(limit: 3)) { try run.client.transactionHistory("1") }
    }

    @Test func oneForgedItemRefusesTheWholeAnswer() throws {
        let forged = Self.signed("2", bundleId: "org.example.other")
        let body = #"{"revision":"r","hasMore":false,"signedTransactions":["\#(Self.signed("1"))","\#(forged)"]}"#
        #expect(throws: ServerAPIFailure.unverifiable(.bundleIdMismatch(found: "org.example.other"))) {
            try run([.ok(body)]).client.transactionHistory("1")
        }
        let wrongEnvironment = try run([.ok(Self.historyPage(["1"], environment: "Sandbox"))])
        #expect(throws: ServerAPIFailure.unverifiable(.environmentNotAccepted("sandbox"))) {
            try wrongEnvironment.client.transactionHistory("1")
        }
    }

    @Test func statusesNotificationHistoryAndExtensionAreDecoded() throws {
        let renewal = SimulatedAppStoreSigner(authority: Self.authority, bundleId: Self.bundleId, appAppleId: 1, environment: "Production")
            .signedRenewalInfo(["originalTransactionId": "100", "productId": "monthly", "autoRenewStatus": 1], signedDate: Self.now)!
        let statuses = #"{"environment":"Production","data":[{"subscriptionGroupIdentifier":"g","lastTransactions":[{"status":1,"originalTransactionId":"100","signedTransactionInfo":"\#(Self.signed("3"))","signedRenewalInfo":"\#(renewal)"}]}]}"#
        let history = #"{"hasMore":true,"paginationToken":"p2","notificationHistory":[{"signedPayload":"a.b.c","sendAttempts":[{"attemptDate":1,"sendAttemptResult":"TIMED_OUT"}]}]}"#
        let last = #"{"hasMore":false,"notificationHistory":[{"signedPayload":"d.e.f","sendAttempts":[]}]}"#
        let extended = #"{"effectiveDate":1770000000000,"originalTransactionId":"100","webOrderLineItemId":"w","success":true}"#
        let run = try run([.ok(statuses), .ok(history), .ok(last), .ok(extended)])
        let found = try run.client.subscriptionStatuses("3")
        #expect(found.statuses.map(\.status) == [1])
        #expect(found.statuses.first?.renewalInfo?.kind == .renewalInfo)
        var records: [ServerAPINotificationRecord] = []
        try run.client.notificationHistory(.init(start: Self.now.adding(seconds: -60), end: Self.now, onlyFailures: true),
                                           in: .production) { records += $0 }
        #expect(records.map(\.signedPayload) == ["a.b.c", "d.e.f"])
        #expect(records.first?.sendAttemptResults == ["TIMED_OUT"])
        #expect(run.api.requests[1].body?.contains(#""onlyFailures":true"#) == true)
        #expect(run.api.requests[2].url.query == "paginationToken=p2")
        let result = try run.client.extendRenewalDate("100", .init(days: 7, reasonCode: 1, requestIdentifier: "req-1"))
        #expect(result.result.success && result.result.effectiveDate == Self.now)
        #expect(run.api.requests[3].method == "PUT")
        #expect(run.api.requests[3].url.path == "/inApps/v1/subscriptions/extend/100")
    }

    @Test func transactionIdsAreEscapedIntoOnePathSegment() throws {
        let run = try run([.error(404, code: 4040010), .error(404, code: 4040010)])
        _ = try? run.client.transactionInfo("../v1/x?y")
        #expect(run.api.requests.first?.url.absoluteString == "https://production.test/inApps/v1/transactions/..%2Fv1%2Fx%3Fy")
    }
}
