import Foundation
import OutboundHTTP
import TestSupport
import Synchronization
import Testing
@testable import AppStoreKit

/// One kept session per outside service: connections are reused between its calls, never shared
/// with another service's session, and nothing one answer set (a cookie) is sent with the next.
@Suite struct URLSessionExchangeTests {
    static func post(_ transport: URLSessionExchange, _ listener: LocalHTTPListener) throws -> Int {
        try transport.postJSON(Data("{}".utf8), to: listener.url("/verifyReceipt"), timeout: 10, maximumResponseBytes: 1 << 16).statusCode
    }

    @Test func callsThroughOneTransportReuseOneConnection() throws {
        let listener = try LocalHTTPListener(keepAlive: true) { _ in .respond(status: 200, body: Data(#"{"status":0}"#.utf8)) }
        defer { listener.stop() }
        let transport = URLSessionExchange()
        for _ in 0..<5 { #expect(try Self.post(transport, listener) == 200) }
        #expect(listener.requests.count == 5)
        #expect(listener.acceptedConnections == 1)
    }

    @Test func twoServicesNeverShareAConnection() throws {
        let listener = try LocalHTTPListener(keepAlive: true) { _ in .respond(status: 200, body: Data(#"{"status":0}"#.utf8)) }
        defer { listener.stop() }
        let apple = URLSessionExchange(), webhooks = URLSessionExchange()
        for _ in 0..<2 {
            #expect(try Self.post(apple, listener) == 200)
            #expect(try Self.post(webhooks, listener) == 200)
        }
        #expect(listener.acceptedConnections == 2)
    }

    @Test func aCookieAnAnswerSetsIsNeverSentBack() throws {
        let listener = try LocalHTTPListener(keepAlive: true) { _ in
            .respond(status: 200, body: Data(#"{"status":0}"#.utf8), headers: [("Set-Cookie", "session=abc; Path=/")])
        }
        defer { listener.stop() }
        let transport = URLSessionExchange()
        for _ in 0..<2 { #expect(try Self.post(transport, listener) == 200) }
        #expect(listener.requests.count == 2)
        #expect(listener.requests.allSatisfy { $0.headers["cookie"] == nil })
    }

    @Test func aCallAfterOneCancelledAtItsDeadlineIsAnswered() throws {
        let calls = CallCounter()
        let listener = try LocalHTTPListener(keepAlive: true) { request in
            calls.next() == 0 ? .silence : .respond(status: 200, body: Data(#"{"status":0}"#.utf8))
        }
        defer { listener.stop() }
        let transport = URLSessionExchange()
        #expect(throws: TransportFailure.timedOut) {
            try transport.postJSON(Data("{}".utf8), to: listener.url("/slow"), timeout: 0.3, maximumResponseBytes: 1 << 16)
        }
        #expect(try Self.post(transport, listener) == 200)
    }

    /// Calls in flight at once on one session: each answer reaches the call that asked for it
    /// (the session's delegate routes callbacks by task), answered in another order than asked.
    @Test func concurrentCallsEachGetTheirOwnAnswer() throws {
        let listener = try LocalHTTPListener(keepAlive: true) { request in
            let n = Int(request.path.dropFirst()) ?? 0
            Thread.sleep(forTimeInterval: Double((8 - n) % 4) * 0.02)
            return .respond(status: 200, body: Data(#"{"path":"\#(request.path)","pad":"\#(String(repeating: "x", count: n * 4096))"}"#.utf8))
        }
        defer { listener.stop() }
        let transport = URLSessionExchange()
        let answers = Mutex([Int: String]())
        DispatchQueue.concurrentPerform(iterations: 8) { n in
            let body = try? transport.postJSON(Data("{}".utf8), to: listener.url("/\(n)"), timeout: 10, maximumResponseBytes: 1 << 20).body
            answers.withLock { $0[n] = body.map { String(decoding: $0, as: UTF8.self) } ?? "failed" }
        }
        let got = answers.withLock { $0 }
        for n in 0..<8 {
            #expect(got[n]?.hasPrefix(#"{"path":"/\#(n)","#) == true, "call \(n) got \(got[n]?.prefix(40) ?? "nothing")")
            #expect(got[n]?.count == #"{"path":"/\#(n)","pad":""}"#.count + n * 4096)
        }
    }
}

/// Counts calls from the listener's threads.
final class CallCounter: Sendable {
    private let count = Mutex(0)
    func next() -> Int { count.withLock { value in defer { value += 1 }; return value } }
}
