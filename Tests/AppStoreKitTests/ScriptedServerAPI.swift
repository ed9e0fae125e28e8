import Foundation
import Synchronization
import IssueCatalog
import OutboundHTTP
import Wire
@testable import AppStoreKit

/// A Server API transport that answers from a script, one entry per request, and records what it
/// was asked. Running past the script's end is answered as a hang-up (a test failure).
final class ScriptedServerAPI: HTTPTransport, Sendable {
    enum Answer {
        case ok(String)
        case http(Int, body: String = "", headers: [String: String] = [:])
        case failure(TransportFailure)

        static func error(_ status: Int, code: Int) -> Answer {
            .http(status, body: #"{"errorCode":\#(code),"errorMessage":"scripted"}"#)
        }
    }

    struct Request {
        var method: String
        var url: URL
        var headers: [String: String]
        var body: String?
    }

    private let queue: ScriptQueue<Answer, Request>

    init(_ script: [Answer]) { queue = ScriptQueue(script) }

    var requests: [Request] { queue.requests }
    var hosts: [String] { requests.map { $0.url.host ?? "" } }

    func send(method: String, url: URL, headers: [String: String], body: Data?, timeout: TimeInterval,
              maximumResponseBytes: Int) throws(TransportFailure) -> HTTPExchangeResult {
        let answer = queue.next(for: Request(method: method, url: url, headers: headers,
                                             body: body.map { String(decoding: $0, as: UTF8.self) }),
                                exhausted: .failure(.connection("script exhausted")))
        switch answer {
        case .ok(let body): return HTTPExchangeResult(statusCode: 200, body: Data(body.utf8))
        case .http(let status, let body, let headers): return HTTPExchangeResult(statusCode: status, body: Data(body.utf8), headers: headers)
        case .failure(let failure): throw failure
        }
    }
}

/// A clock the client's pauses move forward, so deadlines are tested without waiting.
final class SteppingClock: Sendable {
    private struct State {
        var current: Instant
        var paused: [TimeInterval] = []
    }

    private let state: Mutex<State>

    init(_ start: Instant) { state = Mutex(State(current: start)) }

    func now() -> Instant { state.withLock { $0.current } }
    var pauses: [TimeInterval] { state.withLock { $0.paused } }

    func pause(_ seconds: TimeInterval) {
        state.withLock { state in
            state.paused.append(seconds)
            state.current = state.current.adding(milliseconds: Int64(seconds * 1000))
        }
    }
}
