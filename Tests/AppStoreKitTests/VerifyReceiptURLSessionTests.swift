import Entitle
import Foundation
import TestSupport
import Testing
@testable import AppStoreKit

/// The real URLSession path against a local HTTP endpoint playing Apple.
@Suite struct VerifyReceiptURLSessionTests {
    func client(_ listener: LocalHTTPListener, timeout: TimeInterval = 10, attempts: Int = 3,
                maximumResponseBytes: Int = 1 << 20) -> VerifyReceiptClient {
        let configuration = VerifyReceiptConfiguration(productionURL: listener.url("/production"), sandboxURL: listener.url("/sandbox"),
                                                       sharedSecret: "s3cret", requestTimeout: timeout, maximumAttempts: attempts,
                                                       maximumResponseBytes: maximumResponseBytes)
        return VerifyReceiptClient(configuration: configuration, pause: { _ in }, log: { _ in })
    }

    @Test func postsJSONAndFollowsTheSandboxRedirect() throws {
        let listener = try LocalHTTPListener { request in
            let status = request.path == "/production" ? 21007 : 0
            return .respond(status: 200, body: Data(#"{"status":\#(status),"environment":"Sandbox","receipt":{}}"#.utf8))
        }
        defer { listener.stop() }
        let outcome = client(listener).verify(receiptData: "TUlJRQ==")
        guard case .valid(let body, .sandbox) = outcome else { Issue.record("\(outcome)"); return }
        #expect(String(decoding: body, as: UTF8.self) == #"{"status":0,"environment":"Sandbox","receipt":{}}"#)
        let requests = listener.requests
        #expect(requests.map(\.path) == ["/production", "/sandbox"])
        #expect(requests.first?.headers["content-type"] == "application/json")
        let sent = try #require(requests.first?.body)
        let fields = try #require(try JSONSerialization.jsonObject(with: sent) as? [String: Any])
        #expect(fields["receipt-data"] as? String == "TUlJRQ==")
        #expect(fields["password"] as? String == "s3cret")
    }

    @Test func aSilentAppStoreTimesOutAndIsUnavailable() throws {
        let listener = try LocalHTTPListener { _ in .silence }
        defer { listener.stop() }
        let outcome = client(listener, timeout: 0.5, attempts: 2).verify(receiptData: "TUlJRQ==")
        #expect(outcome == .unavailable(reason: .timedOut))
        // The request reached the socket; how many attempts were made is VerifyReceiptClientTests'
        // business (scripted transport): under parallel load libcurl may not have sent the second
        // attempt before the client's own deadline ends it.
        #expect(!listener.requests(atLeast: 1).isEmpty)
    }

    @Test func anOversizedAnswerIsCutOff() throws {
        let listener = try LocalHTTPListener { _ in
            .respond(status: 200, body: Data(#"{"status":0,"pad":"\#(String(repeating: "x", count: 64 * 1024))"}"#.utf8))
        }
        defer { listener.stop() }
        let outcome = client(listener, maximumResponseBytes: 4096).verify(receiptData: "TUlJRQ==")
        #expect(outcome == .unavailable(reason: .responseTooLarge(limit: 4096)))
    }

    @Test func aServerErrorIsRetried() throws {
        let listener = try LocalHTTPListener { _ in .respond(status: 503, body: Data("busy".utf8)) }
        defer { listener.stop() }
        let outcome = client(listener, attempts: 2).verify(receiptData: "TUlJRQ==")
        #expect(outcome == .unavailable(reason: .httpStatus(503)))
        #expect(!listener.requests(atLeast: 1).isEmpty)
    }

    @Test func aClosedPortIsATransportFailure() throws {
        let listener = try LocalHTTPListener { _ in .silence }
        listener.stop()
        let outcome = client(listener, attempts: 1).verify(receiptData: "TUlJRQ==")
        guard case .unavailable(.transport) = outcome else { Issue.record("\(outcome)"); return }
    }
}
