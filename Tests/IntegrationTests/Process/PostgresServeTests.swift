import Foundation
import Synchronization
import Testing
import Wire
import GatewayTesting
import TestSupport

/// `issue-gateway serve` processes on one PostgreSQL database: all serve; a `kill -9`
/// of one under load loses nothing it acknowledged, and the others keep serving throughout.
@Suite(.tags(.integration, .process, .postgres), .postgresCluster)
struct PostgresServeTests {
    /// The download token key the processes share (`ISSUE_GATEWAY_TOKEN_KEYS`).
    static let tokenKeys = "k1:" + Base64URL.encode([UInt8](repeating: 0x33, count: 32))

    static let adminKey = String(repeating: "a", count: 40)

    /// What every process of one deployment is given: the database and the shared secrets.
    static func environment(_ schema: TemporaryPostgresSchema, _ folder: TemporaryDatabase) -> [String: String] {
        ["ISSUE_GATEWAY_DATABASE_URL": schema.url, "ISSUE_GATEWAY_DATABASE": folder.path,
         "ISSUE_GATEWAY_CATALOG": GatewayHarness.sampleCatalog, "ISSUE_GATEWAY_ADMIN_KEY": adminKey,
         "ISSUE_GATEWAY_TOKEN_KEYS": Self.tokenKeys, "ISSUE_GATEWAY_THREADS": "2",
         "ISSUE_GATEWAY_ACCOUNT_CREATION_RATE": "100000000", "ISSUE_GATEWAY_ACCOUNT_CREATION_BURST": "100000000"]
    }

    /// Three `serve` processes: a grant given through B shows in C's cached list, and a key
    /// revoked through A is refused by C, each within a second (`serve` runs the change feed).
    @Test func threeServeProcessesKeepTheirCachesCoherent() throws {
        let schema = try TemporaryPostgresSchema()
        let folder = TemporaryDatabase()
        let a = try ServeProcess(environment: Self.environment(schema, folder))
        let b = try ServeProcess(environment: Self.environment(schema, folder))
        let c = try ServeProcess(environment: Self.environment(schema, folder))
        defer { for process in [a, b, c] { _ = process.stop() } }

        let reader = try #require(Self.account(try a.send("POST", "/v1/accounts", body: "{}").body))
        let list = "/v1/accounts/\(reader.id)/issues?entitled=true&publication=monthly"
        let before = try c.get(list, bearer: reader.token)
        let freeIssues = try #require(Self.issueCount(before.body))  // and the answer cached in C
        #expect(before.status == 200)
        let grant = #"{"source":"print","externalId":"p-1","publications":["monthly"],"start":"2020-01-01T00:00:00Z"}"#
        #expect(try b.send("POST", "/v1/accounts/\(reader.id)/grants", body: grant, bearer: Self.adminKey).status == 201)
        #expect(eventually(seconds: 1) {
            (try? c.get(list, bearer: reader.token)).flatMap { Self.issueCount($0.body) } ?? 0 > freeIssues
        },
                "C still lists only the free issues a second after the grant")

        let created = try a.send("POST", "/v1/keys", body: #"{"role":"service"}"#, bearer: Self.adminKey)
        let key = try #require(try JSONSerialization.jsonObject(with: Data(created.body.utf8)) as? [String: Any])
        let (keyId, secret) = (try #require(key["keyId"] as? String), try #require(key["key"] as? String))
        let entitlements = "/v1/accounts/\(reader.id)/entitlements"
        #expect(try c.get(entitlements, bearer: secret).status == 200)  // resolved and cached in C
        #expect(try a.send("DELETE", "/v1/keys/\(keyId)", bearer: Self.adminKey).status == 200)
        #expect(eventually(seconds: 1) { (try? c.get(entitlements, bearer: secret).status) == 401 },
                "C still accepts a key revoked through A a second ago")
    }

    /// Three processes: writers create accounts on A, B and C until A is killed with SIGKILL
    /// mid-load; every account any of them acknowledged (A's included) is then found through both
    /// survivors, and B and C answered every request sent to them meanwhile.
    @Test func aKill9UnderLoadLosesNothingAcknowledgedAndTheOthersKeepServing() throws {
        let schema = try TemporaryPostgresSchema()
        let folder = TemporaryDatabase()  // where secrets would go; every secret is given here
        let environment = Self.environment(schema, folder)
        let a = try ServeProcess(environment: environment)
        let b = try ServeProcess(environment: environment)
        let c = try ServeProcess(environment: environment)
        defer { for survivor in [b, c] { _ = survivor.stop() } }
        #expect(a.stderr.contains("imported") && !b.stderr.contains("imported") && !c.stderr.contains("imported"))
        #expect(try c.get("/v1/publications").body.contains(#""id":"monthly""#))

        // Writers create accounts on all three until told to stop; A is killed while they run.
        let processes = [a, b, c]
        let acknowledged = Mutex<[(id: String, token: String)]>([])
        let failuresOnSurvivors = Mutex<[String]>([])
        let running = Atomic<Bool>(true)
        let createdOnA = Atomic<Int>(0)
        let group = DispatchGroup()
        for writer in 0..<6 {
            group.enter()
            Thread {
                defer { group.leave() }
                var round = 0
                while running.load(ordering: .acquiring) {
                    round += 1
                    let target = (writer + round) % processes.count
                    let answer = (try? processes[target].send("POST", "/v1/accounts", body: "{}")) ?? (status: 0, body: "")
                    if answer.status == 201, let account = Self.account(answer.body) {
                        acknowledged.withLock { $0.append(account) }
                        if target == 0 { createdOnA.add(1, ordering: .relaxed) }
                    } else if target != 0 {
                        failuresOnSurvivors.withLock { $0.append("\(target == 1 ? "B" : "C"): \(answer.status) \(answer.body)") }
                    }
                }
            }.start()
        }
        #expect(eventually(seconds: 30) { createdOnA.load(ordering: .relaxed) >= 20 })
        #expect(a.stop(with: SIGKILL) == SIGKILL)
        let atKill = acknowledged.withLock { $0.count }
        #expect(eventually(seconds: 30) { acknowledged.withLock { $0.count } >= atKill + 40 })
        running.store(false, ordering: .releasing)
        group.wait()

        #expect(failuresOnSurvivors.withLock { $0 } == [], "a survivor failed requests while A died")
        for account in acknowledged.withLock({ $0 }) {
            for survivor in [b, c] {
                let answer = try survivor.get("/v1/accounts/\(account.id)/entitlements", bearer: account.token)
                #expect(answer.status == 200, "account \(account.id) was acknowledged but is gone")
            }
        }
    }

    static func account(_ body: String) -> (id: String, token: String)? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
              let id = object["accountId"] as? String, let token = object["accountToken"] as? String else { return nil }
        return (id, token)
    }

    private static func issueCount(_ body: String) -> Int? {
        ((try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any])
            .flatMap { $0["issues"] as? [Any] }?.count
    }
}
