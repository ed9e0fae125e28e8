import Entitle
import Foundation
@testable import GatewayConfiguration
@testable import GatewayPush
import GatewayStore
import Lifecycle
import IssueCatalog
import TestSupport
import Testing
import Wire
import GatewayTesting

/// The APNs provider against a fake APNs that speaks HTTP/2 over TLS and checks what Apple checks
/// (Tests/Fakes/fake_apns.py): the provider token's ES256 signature with the public key, the
/// headers and the payload; it answers 410, 429, 500 and 400 on demand.
@Suite(.tags(.integration, .apns), .serialized) struct APNsProviderTests {
    static func token(_ prefix: String, _ n: Int) -> String {
        let tail = String(format: "%x", n)
        return prefix + String(repeating: "0", count: 64 - prefix.count - tail.count) + tail
    }

    @Test func publishingPushesEveryEntitledDeviceOverHTTP2WithRetriesAndDropsUnregisteredTokens() throws {
        let key = try APNsTestKey()
        let fake = try FakeAPNs(key: key, keyId: H.apnsKeyId, teamId: H.apnsTeamId, topic: H.apnsTopic)
        defer { fake.stop() }
        let h = try H.withPushes(apnsKeyPath: key.path, apnsURL: fake.url, caFile: fake.caFile)
        let store = h.runtime.core.store
        try h.seedCatalog()
        let reader = try h.createAccount(), other = try h.createAccount()
        try h.subscribe(reader.id)
        try h.subscribe(other.id, original: "sub-2")
        let client = try PushServices.apnsClient(h.runtime.configuration.push) { settings in
            settings.backoff = RetryBackoff(base: .milliseconds(10), maximum: .milliseconds(40))
        }
        let fanOut = PushFanOut(delivery: h.runtime.core.delivery, sender: client)
        try h.drainPushJobs(fanOut)  // the seeded issues, announced as they were posted, before any device
        let tokens = ["ab": Self.token("ab", 1), "410": Self.token("410", 2), "429": Self.token("429", 3),
                      "500": Self.token("500", 4), "400": Self.token("400", 5)]
        for (name, token) in tokens {
            let environment = name == "ab" ? "sandbox" : "production"
            #expect(try h.client.post("/v1/accounts/\(reader.id)/devices", as: reader.token,
                                      json: #"{"apnsToken":"\#(token)","environment":"\#(environment)"}"#).status == 201)
        }
        let otherPhone = Self.token("cd", 6)
        #expect(try h.client.post("/v1/accounts/\(other.id)/devices", as: other.token, json: #"{"apnsToken":"\#(otherPhone)"}"#).status == 201)
        let before = fake.records.count

        let march = H.issueBody(id: "2026-03", publishedAt: "2026-03-01T00:00:00Z", paths: ["/content/monthly/2026-03/issue.pdf"])
        #expect(try h.client.post("/v1/publications/monthly/issues", as: H.adminKey, json: march).status == 201)
        try h.drainPushJobs(fanOut)
        let records = Array(fake.records.dropFirst(before))
        #expect(records.allSatisfy { $0.http == "2" }, "HTTP/2 over TLS")
        #expect(records.allSatisfy { $0.problem == nil }, "\(records.compactMap(\.problem))")
        #expect(records.allSatisfy { $0.publicationId == "monthly" && $0.issueId == "2026-03" })
        func statuses(_ token: String) -> [Int] { records.filter { $0.token == token }.map(\.status) }
        #expect(statuses(tokens["ab"]!) == [200])
        #expect(records.first { $0.token == tokens["ab"]! }?.sandbox == true, "a sandbox device goes to the sandbox endpoint")
        #expect(records.first { $0.token == otherPhone }?.sandbox == false)
        #expect(statuses(otherPhone) == [200])
        #expect(statuses(tokens["429"]!) == [429, 429, 200], "429 retried with backoff")
        #expect(statuses(tokens["500"]!) == [500, 200], "5xx retried")
        #expect(statuses(tokens["400"]!) == [400], "a refusal is not retried")
        #expect(statuses(tokens["410"]!) == [410])
        let kept = Set(try store.devices(ofAccount: reader.id).map(\.apnsToken))
        #expect(!kept.contains(tokens["410"]!), "410 Unregistered drops the token")
        #expect(kept.count == 4)
        let metrics = try h.client.get("/metrics").text
        #expect(metrics.contains(#"issue_gateway_apns_rejections_total{reason="BadDeviceToken"}"#))
        #expect(metrics.contains(#"issue_gateway_apns_pushes_total{result="unregistered"} 1"#))
    }

    @Test func theProviderTokenIsReusedForUnderAnHourAndRenewedOnRequest() throws {
        let key = try APNsTestKey()
        let pem = try String(contentsOfFile: key.path, encoding: .utf8)
        let token = try APNsProviderToken(keyPEM: pem, keyId: "KID", teamId: "TEAM")
        let start: Int64 = 1_790_000_000
        let first = try #require(token.bearer(unixSeconds: start))
        #expect(token.bearer(unixSeconds: start + 49 * 60) == first)
        let later = try #require(token.bearer(unixSeconds: start + 51 * 60))
        #expect(later != first, "renewed before the hour APNs allows")
        #expect(token.bearer(unixSeconds: start + 52 * 60, renew: true) != later)
        let parts = first.split(separator: ".").map(String.init)
        #expect(parts.count == 3 && Base64URL.decode(parts[2])?.count == 64, "ES256 as raw r‖s")
        let header = try #require(Base64URL.decode(parts[0]))
        #expect(String(decoding: header, as: UTF8.self) == #"{"alg":"ES256","kid":"KID"}"#)
        let claims = try #require(Base64URL.decode(parts[1]))
        #expect(String(decoding: claims, as: UTF8.self) == #"{"iss":"TEAM","iat":\#(start)}"#)
        #expect(throws: APNsProviderToken.LoadError.self) { try APNsProviderToken(keyPEM: "not a key", keyId: "K", teamId: "T") }
    }

    @Test func apnsAnswersAreClassifiedAsApplesTableSays() {
        func answer(_ status: Int, _ reason: String? = nil) -> HTTP2Response {
            HTTP2Response(status: status, body: reason.map { Array(#"{"reason":"\#($0)"}"#.utf8) } ?? [], httpVersion: 3, transportError: nil)
        }
        #expect(APNsClient.classify(answer(200)) == .done(.sent))
        #expect(APNsClient.classify(answer(410, "Unregistered")) == .done(.unregistered(since: nil)))
        let gone = HTTP2Response(status: 410, body: Array(#"{"reason":"Unregistered","timestamp":1790000000000}"#.utf8),
                                 httpVersion: 3, transportError: nil)
        #expect(APNsClient.classify(gone) == .done(.unregistered(since: Instant(millisecondsSinceEpoch: 1_790_000_000_000))))
        #expect(APNsClient.classify(answer(429, "TooManyRequests")) == .retry(renewToken: false))
        #expect(APNsClient.classify(answer(503, "ServiceUnavailable")) == .retry(renewToken: false))
        #expect(APNsClient.classify(answer(0)) == .retry(renewToken: false), "no answer")
        #expect(APNsClient.classify(answer(403, "ExpiredProviderToken")) == .retry(renewToken: true))
        #expect(APNsClient.classify(answer(400, "BadDeviceToken")) == .done(.rejected(reason: "BadDeviceToken")))
        #expect(APNsClient.classify(answer(413, "PayloadTooLarge")) == .done(.rejected(reason: "PayloadTooLarge")))
    }

    @Test func stoppingWhileAPNsDoesNotAnswerEndsPromptlyAndLeavesThePageToBeSentAgain() throws {
        let key = try APNsTestKey()
        let silent = try LocalHTTPListener { _ in .silence }
        defer { silent.stop() }
        let h = try H.withPushes(apnsKeyPath: key.path, apnsURL: "http://127.0.0.1:\(silent.port)")
        try h.seedCatalog()
        let reader = try h.createAccount()
        try h.subscribe(reader.id)
        _ = try h.registerDevice(reader, 1)
        let client = try PushServices.apnsClient(h.runtime.configuration.push)
        let fanOut = PushFanOut(delivery: h.runtime.core.delivery, sender: client)
        let before = try h.runtime.core.store.openPushJobs()
        try fanOut.start()
        #expect(silent.requests(atLeast: 1).count >= 1, "the push is on its way and gets no answer")
        let started = Date()
        fanOut.stop()
        fanOut.join()
        #expect(Date().timeIntervalSince(started) < 3, "not held up by the 30 s APNs timeout or the retries")
        let after = try h.runtime.core.store.openPushJobs()
        #expect(Set(after.map(\.issue)) == Set(before.map(\.issue)), "the page cut short is not recorded as sent")
        #expect(after.allSatisfy { $0.cursor == nil })
    }
}
