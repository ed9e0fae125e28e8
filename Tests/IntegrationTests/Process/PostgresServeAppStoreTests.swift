import Foundation
import Synchronization
import Testing
import TestSupport

/// Three `issue-gateway serve` processes, A, B and C, on one PostgreSQL schema, sharing one App
/// Store (the simulator, in this process) under the `keep` policy: what
/// one process takes from Apple shows in the others' cached answers within a second, and E4
/// ownership holds across processes.
@Suite(.tags(.integration, .process, .postgres), .postgresCluster)
final class PostgresServeAppStoreTests {
    let schema: TemporaryPostgresSchema
    let folder = TemporaryDatabase()
    let apple: ServeAppStore
    let a: ServeProcess
    let b: ServeProcess
    let c: ServeProcess

    init() throws {
        schema = try TemporaryPostgresSchema()
        apple = try ServeAppStore()
        let environment = PostgresServeTests.environment(schema, folder).merging(apple.environment) { $1 }
        a = try ServeProcess(environment: environment)  // imports the catalog into the empty schema
        b = try ServeProcess(environment: environment)
        c = try ServeProcess(environment: environment)
    }

    deinit {
        for process in [a, b, c] { _ = process.stop() }
    }

    @Test func aReceiptTakenByAShowsInBsIssueListWithinOneSecond() throws {
        let reader = try newReader(on: a)
        #expect(try entitledIssues(reader, on: b) == [])  // and cached in B
        #expect(try sendReceipt(for: reader, to: a).status == 200)
        #expect(eventually(seconds: 1) { (try? self.entitledIssues(reader, on: b)) == ServeAppStore.issues },
                "B still lists what it cached before the receipt")
    }

    @Test func aRefundNotificationTakenByBMakesARefuseATokenWithinOneSecond() throws {
        let reader = try newReader(on: a)
        #expect(try sendReceipt(for: reader, to: a).status == 200)
        #expect(try tokenStatus(reader, issue: "2026-03", on: a) == 200)  // A holds the facts now
        let notification = try apple.refundMarch()
        #expect(try b.send("POST", "/v1/appstore/notifications", body: notification).status == 200)
        #expect(eventually(seconds: 1) { (try? self.tokenStatus(reader, issue: "2026-03", on: self.a)) == 403 },
                "A still signs a token for the refunded issue")
        #expect(try tokenStatus(reader, issue: "2026-02", on: a) == 200)  // only the refunded period is gone
    }

    /// E4 under `keep` across processes: 50 readers post the same receipt at once, half to A,
    /// half to B: exactly one owns the subscription, every other is refused.
    @Test func fiftyConcurrentReceiptsOverAAndBLeaveExactlyOneOwner() throws {
        let readers = try (0..<50).map { index in try newReader(on: [a, b, c][index % 3]) }
        let statuses = Mutex<[Int]>([])
        let group = DispatchGroup()
        let start = Gate()
        for (index, reader) in readers.enumerated() {
            group.enter()
            Thread { [a, b] in
                defer { group.leave() }
                start.wait()
                let body = #"{"receiptData":"\#(ServeAppStore.receipt)"}"#
                let status = (try? Self.post(body, to: "/v1/accounts/\(reader.id)/receipts", bearer: reader.token,
                                             port: index % 2 == 0 ? a.port : b.port)) ?? 0
                statuses.withLock { $0.append(status) }
            }.start()
        }
        for _ in readers { start.open() }
        group.wait()
        let all = statuses.withLock { $0 }
        #expect(all.filter { $0 == 200 }.count == 1, "\(all)")
        #expect(all.filter { $0 == 409 }.count == 49, "\(all)")
        let owners = try readers.filter { try !subscriptions(of: $0, on: c).isEmpty }
        #expect(owners.count == 1)
    }

    // MARK: Requests

    private func newReader(on process: ServeProcess) throws -> (id: String, token: String) {
        let answer = try process.send("POST", "/v1/accounts", body: "{}")
        return try #require(PostgresServeTests.account(answer.body), "no account: \(answer.status) \(answer.body)")
    }

    private func sendReceipt(for reader: (id: String, token: String), to process: ServeProcess) throws -> (status: Int, body: String) {
        try process.send("POST", "/v1/accounts/\(reader.id)/receipts", body: #"{"receiptData":"\#(ServeAppStore.receipt)"}"#,
                         bearer: reader.token)
    }

    /// Ids of the issues the reader may download now, as `process` answers.
    private func entitledIssues(_ reader: (id: String, token: String), on process: ServeProcess) throws -> [String] {
        let answer = try process.get("/v1/accounts/\(reader.id)/issues?entitled=true", bearer: reader.token)
        let issues = try #require(Self.json(answer.body)["issues"] as? [[String: Any]], "\(answer.status) \(answer.body)")
        return issues.compactMap { $0["id"] as? String }.sorted()
    }

    private func subscriptions(of reader: (id: String, token: String), on process: ServeProcess) throws -> [[String: Any]] {
        let answer = try process.get("/v1/accounts/\(reader.id)/entitlements", bearer: reader.token)
        return try #require(Self.json(answer.body)["subscriptions"] as? [[String: Any]], "\(answer.status) \(answer.body)")
    }

    private func tokenStatus(_ reader: (id: String, token: String), issue: String, on process: ServeProcess) throws -> Int {
        try process.send("POST", "/v1/accounts/\(reader.id)/publications/monthly/issues/\(issue)/token", body: "{}",
                         bearer: reader.token).status
    }

    /// One POST over a connection of its own (not URLSession's shared pool, which would queue the
    /// concurrent requests per host); the status code.
    private static func post(_ body: String, to path: String, bearer: String, port: Int) throws -> Int {
        let client = try TestClient(port: port, timeoutMilliseconds: 30_000)
        client.send("POST \(path) HTTP/1.1\r\nHost: gateway\r\nConnection: close\r\nAuthorization: Bearer \(bearer)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        return try client.readResponse().status
    }

    private static func json(_ body: String) -> [String: Any] {
        ((try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]) ?? [:]
    }
}
