import Entitle
import Foundation
import Testing
@testable import AppStoreKit

/// The outcome table of appstore.md "verifyReceipt", against a scripted App Store.
@Suite struct VerifyReceiptClientTests {
    static let configuration = VerifyReceiptConfiguration(
        productionURL: URL(string: "https://production.test/verifyReceipt")!,
        sandboxURL: URL(string: "https://sandbox.test/verifyReceipt")!,
        sharedSecret: "s3cret", maximumAttempts: 3, initialBackoff: 0.5, maximumBackoff: 0.75)

    struct Run {
        let outcome: VerifyReceiptOutcome
        let store: ScriptedAppStore
        let pauses: [TimeInterval]
        let logged: [String]
    }

    func run(_ script: [ScriptedAppStore.Answer], configuration: VerifyReceiptConfiguration = configuration) -> Run {
        let store = ScriptedAppStore(script)
        let pauses = Recorder<TimeInterval>()
        let log = Recorder<String>()
        let client = VerifyReceiptClient(configuration: configuration, transport: store,
                                         pause: { pauses.append($0) }, log: { log.append($0) })
        return Run(outcome: client.verify(receiptData: "TUlJ"), store: store, pauses: pauses.values, logged: log.values)
    }

    @Test func sendsReceiptSecretAndAllTransactionsToProductionFirst() throws {
        let result = run([.status(0, extra: #","environment":"Production""#)])
        let request = try #require(result.store.requests.first)
        #expect(request.url == Self.configuration.productionURL)
        #expect(request.body == #"{"exclude-old-transactions":false,"password":"s3cret","receipt-data":"TUlJ"}"#)
        guard case .valid(let body, let environment) = result.outcome else { Issue.record("\(result.outcome)"); return }
        #expect(environment == .production)
        #expect(String(decoding: body, as: UTF8.self) == #"{"status":0,"environment":"Production"}"#)
    }

    @Test func leavesThePasswordOutWithoutASecret() throws {
        var configuration = Self.configuration
        configuration.sharedSecret = nil
        let result = run([.status(0)], configuration: configuration)
        #expect(result.store.requests.first?.fields["password"] == nil)
    }

    @Test func status21006IsValid() {
        guard case .valid(_, .production) = run([.status(21006)]).outcome else { Issue.record("21006 not valid"); return }
    }

    @Test func status21007FallsBackToSandbox() {
        let result = run([.status(21007), .status(0, extra: #","environment":"Sandbox""#)])
        #expect(result.store.hosts == ["production.test", "sandbox.test"])
        guard case .valid(_, .sandbox) = result.outcome else { Issue.record("\(result.outcome)"); return }
        #expect(result.pauses.isEmpty)
    }

    @Test func status21008GoesBackToProduction() {
        let result = run([.status(21007), .status(21008), .status(0)])
        #expect(result.store.hosts == ["production.test", "sandbox.test", "production.test"])
        guard case .valid(_, .production) = result.outcome else { Issue.record("\(result.outcome)"); return }
    }

    @Test func endlessRedirectsEndUnavailable() {
        let result = run([.status(21007), .status(21008), .status(21007), .status(0)])
        #expect(result.outcome == .unavailable(reason: .environmentLoop))
        #expect(result.store.requests.count == 3)
    }

    @Test(arguments: [21000, 21002, 21003, 21010, 21001, 21099, 12345])
    func rejectedStatusesAre422(_ status: Int) {
        let result = run([.status(status)])
        #expect(result.outcome == .rejected(status: status))
        #expect(result.store.requests.count == 1)
    }

    @Test func wrongSharedSecretIs503AndLoud() {
        let result = run([.status(21004)])
        #expect(result.outcome == .misconfigured(status: 21004))
        #expect(result.logged.count == 1)
        #expect(result.logged.first?.contains("ISSUE_GATEWAY_APPSTORE_SHARED_SECRET") == true)
    }

    @Test(arguments: [21005, 21009, 21100, 21150, 21199])
    func retryableStatusesAreRetriedThenUnavailable(_ status: Int) {
        let result = run([.status(status), .status(status), .status(status), .status(0)])
        #expect(result.outcome == .unavailable(reason: .retryableStatus(status)))
        #expect(result.store.requests.count == 3)
        #expect(result.pauses == [0.5, 0.75])
    }

    @Test func aRetryThatSucceedsIsValid() {
        let result = run([.status(21005), .status(0)])
        guard case .valid = result.outcome else { Issue.record("\(result.outcome)"); return }
        #expect(result.pauses == [0.5])
    }

    @Test(arguments: [#","is-retryable":true"#, #","is_retryable":1"#, #","is-retryable":"true""#])
    func isRetryableMakesAnUnknownStatusRetryable(_ flag: String) {
        let result = run([.status(21199 + 1, extra: flag), .status(0)])
        guard case .valid = result.outcome else { Issue.record("\(result.outcome)"); return }
        #expect(result.store.requests.count == 2)
    }

    @Test func isRetryableFalseKeepsARejection() {
        #expect(run([.status(21003, extra: #","is-retryable":false"#)]).outcome == .rejected(status: 21003))
    }

    @Test func transportTimeoutsAreRetriedThenUnavailable() {
        let result = run([.failure(.timedOut), .failure(.timedOut), .failure(.timedOut)])
        #expect(result.outcome == .unavailable(reason: .timedOut))
        #expect(result.store.requests.count == 3)
    }

    @Test func aConnectionFailureThenAnAnswerIsValid() {
        guard case .valid = run([.failure(.connection("reset")), .status(0)]).outcome else { Issue.record("not retried"); return }
    }

    @Test func serverErrorsAreRetriedOtherHTTPStatusesAreNot() {
        #expect(run([.http(502, body: "bad gateway"), .http(503, body: ""), .http(500, body: "")]).outcome
            == .unavailable(reason: .httpStatus(500)))
        let notFound = run([.http(404, body: "no such page")])
        #expect(notFound.outcome == .unavailable(reason: .httpStatus(404)))
        #expect(notFound.store.requests.count == 1)
    }

    @Test(arguments: ["<html>", "[]", #"{"status":"x"}"#, #"{"status":1.5}"#, #"{}"#])
    func malformedAnswersAreUnavailable(_ body: String) {
        guard case .unavailable(.malformedResponse) = run([.http(200, body: body), .http(200, body: body), .http(200, body: body)]).outcome
        else { Issue.record("malformed answer accepted"); return }
    }

    @Test func aStatusSentAsAStringIsRead() {
        #expect(run([.http(200, body: #"{"status":"21003"}"#)]).outcome == .rejected(status: 21003))
    }

    @Test func anOversizedAnswerIsUnavailableAtOnce() {
        let result = run([.failure(.responseTooLarge(limit: 10))])
        #expect(result.outcome == .unavailable(reason: .responseTooLarge(limit: 10)))
        #expect(result.store.requests.count == 1)
    }

    @Test func backoffDoublesUpToItsCap() {
        let configuration = VerifyReceiptConfiguration(maximumAttempts: 6, initialBackoff: 0.25, maximumBackoff: 1.5)
        #expect((1...5).map { configuration.retry.backoff(beforeRetry: $0) } == [0.25, 0.5, 1, 1.5, 1.5])
    }
}
