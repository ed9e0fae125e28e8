import Foundation
import OutboundHTTP
import Synchronization
@testable import AppStoreKit

/// A verifyReceipt transport that answers from a script, one entry per request, and records
/// what it was asked. Running past the script's end is a test failure (answered as a hang-up).
final class ScriptedAppStore: HTTPTransport, Sendable {
    enum Answer {
        case status(Int, extra: String = "")
        case http(Int, body: String)
        case failure(TransportFailure)
    }

    struct Request: Equatable {
        var url: URL
        var fields: [String: String]
        var body: String
    }

    private let queue: ScriptQueue<Answer, Request>

    init(_ script: [Answer]) { queue = ScriptQueue(script) }

    var requests: [Request] { queue.requests }
    var hosts: [String] { requests.map { $0.url.host ?? "" } }

    func send(method: String, url: URL, headers: [String: String], body: Data?, timeout: TimeInterval,
              maximumResponseBytes: Int) throws(TransportFailure) -> HTTPExchangeResult {
        let body = body ?? Data()
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        let answer = queue.next(for: Request(url: url, fields: object.mapValues { "\($0)" }, body: String(decoding: body, as: UTF8.self)),
                                exhausted: .failure(.connection("script exhausted")))
        switch answer {
        case .status(let status, let extra):
            return HTTPExchangeResult(statusCode: 200, body: Data(#"{"status":\#(status)\#(extra)}"#.utf8))
        case .http(let code, let body):
            return HTTPExchangeResult(statusCode: code, body: Data(body.utf8))
        case .failure(let failure):
            throw failure
        }
    }
}

/// Collects what the client hands to its `pause` and `log` hooks, from any thread.
final class Recorder<Value: Sendable>: Sendable {
    private let recorded = Mutex<[Value]>([])
    var values: [Value] { recorded.withLock { $0 } }
    func append(_ value: Value) { recorded.withLock { $0.append(value) } }
}
