import Entitle
import Foundation
@testable import GatewayConfiguration
import GatewayCrypto
@testable import GatewayPush
import GatewayStore
import Lifecycle
import Synchronization
import TestSupport
import Testing
import Wire
import GatewayTesting

/// Webhooks to the publisher's backend (http-api.md, pushes and webhooks): events kept in
/// the store's outbox, signed, retried until a 2xx, in order per account, across a restart.
@Suite struct WebhookDeliveryTests {
    static let secret = "webhook-secret-0123456789"

    static func harness(webhooks: Bool = true) throws -> H {
        try H(configure: { c in
            if webhooks {
                c.push.webhookURL = "http://127.0.0.1:9/hooks"
                c.push.webhookSecret = secret
            }
        })
    }

    static func deliverer(_ store: any GatewayStore, _ listener: LocalHTTPListener, _ h: H,
                          adjust: (inout WebhookSettings) -> Void = { _ in }) throws -> WebhookDeliverer {
        var settings = WebhookSettings(url: listener.url("/hooks"), secret: secret)
        settings.backoff = RetryBackoff(base: .milliseconds(5), maximum: .milliseconds(40))
        settings.idlePoll = .milliseconds(10)
        settings.timeout = 5
        adjust(&settings)
        return try WebhookDeliverer(settings: settings, store: store, clock: SystemClock(), counters: h.runtime.core.pushCounters)
    }

    /// The receiver's check: `t=<unix>,v1=<hex HMAC-SHA256 of "t.body">` with the shared secret.
    static func signatureIsValid(_ request: LocalHTTPListener.Request) -> Bool {
        guard let header = request.headers["issue-gateway-signature"] else { return false }
        let parts = header.split(separator: ",").map { $0.split(separator: "=", maxSplits: 1).map(String.init) }
        guard parts.count == 2, parts[0].first == "t", parts[1].first == "v1", let t = parts[0].last, Int64(t) != nil,
              let mac = try? HMACSHA256.authenticationCode(key: Array(secret.utf8), message: Array("\(t).".utf8) + Array(request.body))
        else { return false }
        return Hex.encode(mac) == parts[1].last && abs(Int64(t)! - Int64(Date().timeIntervalSince1970)) < 300
    }

    static func event(_ request: LocalHTTPListener.Request) -> (id: String, type: String, account: String?) {
        let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] ?? [:]
        let data = object["data"] as? [String: Any]
        return (object["id"] as? String ?? "", object["type"] as? String ?? "", data?["accountId"] as? String)
    }

    static let grantBody = #"{"source":"print","externalId":"X","publications":["monthly"],"start":"2026-01-10T00:00:00Z"}"#

    @Test func eventsAreSignedRetriedUntilA2xxInOrderAndSurviveARestart() throws {
        let h = try Self.harness()
        try h.seedCatalog()
        let store = h.runtime.core.store
        // The seeded issues were published as they were posted: three issue.published events first.
        #expect(try store.outboxEvents(limit: 100).map(\.kind) == [.issuePublished, .issuePublished, .issuePublished])
        let alice = try h.createAccount(), bob = try h.createAccount()
        // Four changes, four events: alice gains, bob gains, alice loses, alice gains again.
        let first = try h.client.post("/v1/accounts/\(alice.id)/grants", as: H.adminKey, json: Self.grantBody.replacingOccurrences(of: "X", with: "a1"))
        _ = try h.client.post("/v1/accounts/\(bob.id)/grants", as: H.adminKey, json: Self.grantBody.replacingOccurrences(of: "X", with: "b1"))
        let grantId = try #require(first.json["grantId"] as? String)
        #expect(try h.client.delete("/v1/accounts/\(alice.id)/grants/\(grantId)", as: H.adminKey).status == 200)
        _ = try h.client.post("/v1/accounts/\(alice.id)/grants", as: H.adminKey, json: Self.grantBody.replacingOccurrences(of: "X", with: "a2"))
        #expect(try store.outboxLength() == 7)
        // The head of each lane: the first issue.published, alice's first and bob's only event.
        let waiting = try store.outboxEvents(limit: 100)
        var heads: [String: String] = [:]
        for event in waiting where heads[event.accountId ?? ""] == nil { heads[event.accountId ?? ""] = event.eventId }

        // A receiver that is down: each lane's oldest event is retried, nothing later goes, nothing is lost.
        let down = try LocalHTTPListener { _ in .respond(status: 500, body: Data()) }
        defer { down.stop() }
        let before = try Self.deliverer(store, down, h)
        try before.start()
        let refused = down.requests(atLeast: 3)
        before.stop(); before.join()
        #expect(refused.count >= 3)
        #expect(Set(refused.map { Self.event($0).id }).isSubset(of: Set(heads.values)),
                "only the oldest event of each account (and of no account) is tried while it fails")
        #expect(refused.allSatisfy(Self.signatureIsValid))
        #expect(try store.outboxLength() == 7)

        // Restart: a new store on the same file, a new deliverer; the receiver fails every other call.
        let reopened = try h.database.open()
        let calls = Mutex(0)
        let flaky = try LocalHTTPListener { request in
            let n = calls.withLock { $0 += 1; return $0 }
            guard Self.signatureIsValid(request) else { return .respond(status: 401, body: Data()) }
            return .respond(status: n % 2 == 1 ? 503 : 204, body: Data())
        }
        defer { flaky.stop() }
        let after = try Self.deliverer(reopened, flaky, h)
        try after.start()
        defer { after.stop(); after.join() }
        let seen = flaky.requests(atLeast: 14)
        #expect(seen.count >= 14)
        #expect(eventually(seconds: 10) { (try? reopened.outboxLength()) == 0 })
        // Delivered are the even calls (2xx); they are the seven events, each once, and each
        // account's (and the issue.published ones) in the order they were written.
        let delivered = Array(seen.enumerated().filter { $0.offset % 2 == 1 }.map { Self.event($0.element) }.prefix(7))
        #expect(Set(delivered.map(\.id)) == Set(waiting.map(\.eventId)))
        for lane in [nil, alice.id, bob.id] as [String?] {
            #expect(delivered.filter { $0.account == lane }.map(\.id) == waiting.filter { $0.accountId == lane }.map(\.eventId))
        }
        #expect(delivered.filter { $0.account == nil }.map(\.type) == Array(repeating: "issue.published", count: 3))
        #expect(seen.allSatisfy(Self.signatureIsValid))
        for (lane, head) in heads {
            let first = seen.map(Self.event).first { ($0.account ?? "") == lane }
            #expect(first?.id == head, "the event that headed its account before the restart goes first")
        }
    }

    @Test func purchasesAndRefundsFromTheAppStoreMakeEntitlementChangedInTheSameUnitOfWork() throws {
        let h = try Self.harness()
        try h.seedCatalog()
        let reader = try h.createAccount()
        try h.subscribe(reader.id)
        let store = h.runtime.core.store
        let head = try #require(try store.outboxEvents(limit: 100).first { $0.kind == .entitlementChanged })
        #expect(head.kind == .entitlementChanged && head.accountId == reader.id)
        #expect(head.data.contains(#""causes":["purchase"]"#))
        #expect(head.eventId == "entitlement.changed/\(reader.id)/\(try store.accountFacts(reader.id).version)")
        try h.subscribe(reader.id)  // the same facts again: nothing changed, no event
        #expect(try store.outboxEvents(limit: 100).filter { $0.kind == .entitlementChanged }.count == 1)
    }

    @Test func withoutWebhookSettingsNothingIsKept() throws {
        let h = try Self.harness(webhooks: false)
        try h.seedCatalog()
        let reader = try h.createAccount()
        try h.subscribe(reader.id)
        #expect(try h.client.post("/v1/accounts/\(reader.id)/grants", as: H.adminKey, json: Self.grantBody).status == 201)
        #expect(try h.runtime.core.store.outboxLength() == 0)
        #expect(h.runtime.pushServices.isEmpty)
    }

    @Test func aWebhookURLWithoutItsSecretIsRefused() {
        #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: ["ISSUE_GATEWAY_WEBHOOK_URL": "https://hooks.example/x"])
        }
        #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: ["ISSUE_GATEWAY_WEBHOOK_URL": "https://hooks.example/x",
                                                       "ISSUE_GATEWAY_WEBHOOK_SECRET": "short"])
        }
        #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: ["ISSUE_GATEWAY_APNS_KEY_ID": "ABC123"])
        }
    }
}
