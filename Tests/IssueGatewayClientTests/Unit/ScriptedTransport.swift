import Foundation
import IssueGatewayClient
import Synchronization

/// A transport that answers from a script, in order, and records every request: the unit tests'
/// gateway and CDN.
final class ScriptedTransport: HTTPTransport {
    struct Unscripted: Error, CustomStringConvertible {
        var request: HTTPRequest
        var description: String { "no answer scripted for \(request.method) \(request.url)" }
    }

    private let state = Mutex<(answers: [HTTPResponse], requests: [HTTPRequest])>(([], []))

    /// Appends an answer: `json` as the body, `headers` beside it.
    func answer(_ status: Int, _ json: String = "", headers: [String: String] = [:]) {
        let response = HTTPResponse(status: status, headers: headers, body: Data(json.utf8))
        state.withLock { $0.answers.append(response) }
    }

    /// Every request sent so far.
    var requests: [HTTPRequest] { state.withLock { $0.requests } }

    /// Answers scripted and not yet used.
    var unused: Int { state.withLock { $0.answers.count } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try state.withLock { state in
            state.requests.append(request)
            guard !state.answers.isEmpty else { throw Unscripted(request: request) }
            return state.answers.removeFirst()
        }
    }
}

/// The waits a client's retry policy asked for, instead of waiting.
final class RecordedWaits: Sendable {
    private let waits = Mutex<[TimeInterval]>([])
    var all: [TimeInterval] { waits.withLock { $0 } }
    var policy: RetryPolicy {
        RetryPolicy(maximumRetries: 2, maximumWait: 30, sleep: { [self] seconds in waits.withLock { $0.append(seconds) } })
    }
}

enum Fixture {
    static let base = URL(string: "https://gateway.test")!
    static let session = Session(accountId: "acc-1", token: "secret-1", sessionId: "ses-1",
                                 appAccountToken: UUID(uuidString: "3F1C2E9A-7B4D-4C1E-9A2B-5D6E7F8A9B0C"))
    static let entitlements = #"{"accountId":"acc-1","subscriptions":[{"originalTransactionId":"1000","productId":"monthly.1m","environment":"production","state":"active","entitlementCode":1.1,"expiresAt":"2026-04-10T00:00:00.000Z","willRenew":true,"renewsInto":null,"gracePeriodExpiresAt":null,"renewals":2,"grants":["monthly"]}],"purchases":[],"grants":[]}"#
    static let device = DeviceInfo(id: "6b0c1c4e-0d7a-4b8e-9f1e-0a1b2c3d4e5f", name: "Anna's iPad", platform: "ios")

    static func issue(_ id: String, reasons: [String] = ["activePeriod"], entitled: Bool = true) -> String {
        let reasons = reasons.map { "\"\($0)\"" }.joined(separator: ",")
        return #"{"publicationId":"monthly","id":"\#(id)","title":"Issue \#(id)","publishedAt":"\#(id)-01T00:00:00.000Z","free":false,"entitled":\#(entitled),"reasons":[\#(reasons)],"assets":[{"path":"/content/monthly/\#(id)/issue.pdf","bytes":10,"sha256":"\#(String(repeating: "b", count: 64))"}]}"#
    }

    static func page(_ ids: [String], next: String? = nil) -> String {
        #"{"issues":[\#(ids.map { issue($0) }.joined(separator: ","))]\#(next.map { #","next":"\#($0)""# } ?? "")}"#
    }

    /// A client on a scripted transport, signed in as `session` unless `signedIn` is false.
    static func client(_ transport: ScriptedTransport, signedIn: Bool = true, retries: RetryPolicy = .never,
                       pageSize: Int = 100) -> (IssueGatewayClient, InMemorySessionStore) {
        let store = InMemorySessionStore(signedIn ? session : nil)
        return (IssueGatewayClient(baseURL: base, sessionStore: store, transport: transport, retryPolicy: retries,
                                   pageSize: pageSize), store)
    }

    static func json(_ data: Data?) -> [String: Any] {
        guard let data, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }
}
