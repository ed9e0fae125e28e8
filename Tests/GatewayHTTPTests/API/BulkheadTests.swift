import Foundation
import Synchronization
import Testing
import TestSupport
import GatewayTesting

/// With Apple slow (it may take ~46 s to answer), receipt posts wait on their own pool;
/// issue lists and token requests, served from the store pool, stay fast. Apple here is a local
/// listener that holds every verifyReceipt answer until the test opens the latch, so the test
/// knows the receipt posts are still pending while it measures the others.
/// `BULKHEAD_APPLE_DELAY_SECONDS=20 swift test --filter BulkheadTests` also lets Apple answer on the
/// wall clock after that long, as a slow Apple would.
@Suite struct BulkheadTests {
    static let receiptPosts = 16
    static let readsPerRoute = 8

    @Test func receiptPostsWaitingOnAppleDoNotSlowIssueListsOrTokens() throws {
        let apple = Latch()
        let listener = try LocalHTTPListener { _ in
            apple.wait()
            return .respond(status: 200, body: Data(#"{"status":21003}"#.utf8))
        }
        let harness = try GatewayHarness(transport: .socket, configure: { configuration in
            configuration.appStoreProductionURL = listener.url("/verifyReceipt").absoluteString
            configuration.appStoreSandboxURL = listener.url("/sandbox/verifyReceipt").absoluteString
            configuration.appStoreThreads = Self.receiptPosts
        })
        defer {
            apple.open()  // first, so that stopping the server does not wait out Apple's timeouts
            harness.stop()
            listener.stop()
        }
        try harness.seedCatalog()
        let reader = try harness.createAccount()
        try harness.subscribe(reader.id)
        let list = "/v1/accounts/\(reader.id)/issues"
        #expect(try harness.client.get(list, as: reader.token).status == 200)  // cached from here on

        let appleDelay = ProcessInfo.processInfo.environment["BULKHEAD_APPLE_DELAY_SECONDS"].flatMap(Double.init)
        if let appleDelay {
            DispatchQueue.global().asyncAfter(deadline: .now() + appleDelay) { apple.open() }
        }
        let posts = ReceiptPosts(port: harness.port, account: reader, count: Self.receiptPosts)
        // Every post has reached Apple and waits there.
        #expect(listener.requests(atLeast: Self.receiptPosts, timeout: 5).count == Self.receiptPosts)

        let started = ContinuousClock.now
        for _ in 0..<Self.readsPerRoute {
            #expect(try harness.client.get(list, as: reader.token).status == 200)
            #expect(try harness.token(for: reader, issue: "2026-01").status == 200)
        }
        let elapsed = ContinuousClock.now - started
        #expect(posts.answered == 0, "the receipt posts were still waiting on Apple")
        #expect(elapsed < .seconds(3), "issue lists and tokens took \(elapsed) beside the waiting posts")

        if appleDelay == nil { apple.open() }
        #expect(posts.wait() == Array(repeating: 422, count: Self.receiptPosts))  // 21003: receipt_rejected
    }
}

/// Receipt posts, each on its own connection and thread, with a read timeout longer than the
/// time Apple is held.
private final class ReceiptPosts: Sendable {
    private let statuses = Mutex<[Int]>([])
    private let done = DispatchGroup()

    init(port: Int, account: (id: String, token: String), count: Int) {
        let body = #"{"receiptData":"AAAA"}"#
        let request = "POST /v1/accounts/\(account.id)/receipts HTTP/1.1\r\nHost: gateway\r\n"
            + "Authorization: Bearer \(account.token)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        for _ in 0..<count {
            done.enter()
            Thread.detachNewThread { [self] in
                defer { done.leave() }
                let status = (try? { () throws -> Int in
                    let client = try TestClient(port: port, timeoutMilliseconds: 30_000)
                    client.send(request)
                    return try client.readResponse().status
                }()) ?? -1
                statuses.withLock { $0.append(status) }
            }
        }
    }

    /// Posts answered so far.
    var answered: Int { statuses.withLock { $0.count } }

    /// Every post's status once all are answered.
    func wait() -> [Int] {
        done.wait()
        return statuses.withLock { $0 }
    }
}

/// A gate that, once opened, lets every waiter through (Apple answering all held requests).
private final class Latch: Sendable {
    private let state = Mutex(false)
    private let condition = NSCondition()

    func open() {
        condition.lock()
        state.withLock { $0 = true }
        condition.broadcast()
        condition.unlock()
    }

    func wait() {
        condition.lock()
        while !state.withLock({ $0 }) { condition.wait() }
        condition.unlock()
    }
}
