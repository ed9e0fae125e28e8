import Foundation
import IssueGatewayClient
import Testing

/// `Retry-After` (http-api.md: every 429 and 503 carries it) is waited out for idempotent calls
/// only (RFC 9110 §9.2.2); a POST's error reaches the app with the wait.
@Suite struct ClientRetryTests {
    @Test func anIdempotentCallWaitsTheRetryAfterAndTriesAgain() async throws {
        let transport = ScriptedTransport()
        let waits = RecordedWaits()
        let (client, _) = Fixture.client(transport, retries: waits.policy)
        transport.answer(503, #"{"error":{"code":"storage_busy","message":"busy"}}"#, headers: ["Retry-After": "2"])
        transport.answer(429, #"{"error":{"code":"rate_limited","message":"slow down"}}"#, headers: ["Retry-After": "1"])
        transport.answer(200, Fixture.entitlements)
        #expect(try await client.entitlements().accountId == "acc-1")
        #expect(waits.all == [2, 1])
        #expect(transport.requests.count == 3)
        #expect(Set(transport.requests.map(\.url)).count == 1)
    }

    @Test func aPostIsNeverSentAgainAndItsErrorCarriesTheWait() async throws {
        let transport = ScriptedTransport()
        let waits = RecordedWaits()
        let (client, _) = Fixture.client(transport, retries: waits.policy)
        transport.answer(503, #"{"error":{"code":"app_store_unavailable","message":"later"}}"#, headers: ["Retry-After": "7"])
        let error = await #expect(throws: IssueGatewayError.self) { try await client.postSignedTransactions(["jws"]) }
        #expect(error?.code == .appStoreUnavailable)
        #expect(error?.retryAfter == 7)
        #expect(error?.status == 503)
        #expect(waits.all.isEmpty)
        #expect(transport.requests.count == 1)
    }

    @Test func aWaitLongerThanThePolicyAllowsOrRetriesSpentAreThrown() async throws {
        let transport = ScriptedTransport()
        let waits = RecordedWaits()
        let (client, _) = Fixture.client(transport, retries: waits.policy)
        transport.answer(429, #"{"error":{"code":"rate_limited","message":"slow down"}}"#, headers: ["Retry-After": "3600"])
        let long = await #expect(throws: IssueGatewayError.self) { try await client.entitlements() }
        #expect(long?.retryAfter == 3600)
        #expect(waits.all.isEmpty)

        for _ in 0..<3 { transport.answer(503, #"{"error":{"code":"storage_busy","message":"busy"}}"#, headers: ["Retry-After": "1"]) }
        let spent = await #expect(throws: IssueGatewayError.self) { try await client.entitlements() }
        #expect(spent?.code == .storageBusy)
        #expect(waits.all == [1, 1])
        #expect(transport.requests.count == 4)
    }

    @Test func a503WithoutRetryAfterIsNotRetried() async throws {
        let transport = ScriptedTransport()
        let waits = RecordedWaits()
        let (client, _) = Fixture.client(transport, retries: waits.policy)
        transport.answer(503, "<html>bad gateway</html>")
        let error = await #expect(throws: IssueGatewayError.self) { try await client.entitlements() }
        #expect(error?.status == 503)
        #expect(error?.retryAfter == nil)
        #expect(transport.requests.count == 1)
    }

    @Test func aRetryAfterGivenAsAnHTTPDateIsWaitedUntilThen() async throws {
        let transport = ScriptedTransport()
        let waits = RecordedWaits()
        let (client, _) = Fixture.client(transport, retries: waits.policy)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let then = formatter.string(from: Date().addingTimeInterval(10))
        transport.answer(429, #"{"error":{"code":"rate_limited","message":"slow down"}}"#, headers: ["Retry-After": then])
        transport.answer(200, Fixture.entitlements)
        _ = try await client.entitlements()
        let wait = try #require(waits.all.first)
        #expect(wait > 8 && wait <= 10, "waited \(wait) s")
    }
}
