import Foundation
@testable import GatewayConfiguration
import GatewayStore
import Testing
import Wire
import GatewayTesting

/// E34: every account token is a session; an account's live sessions, ending one, signing out,
/// idle sessions, the hourly `lastUsedAt`, and the device limit.
@Suite struct SessionRouteTests {
    @Test func e34TheFirstSessionIsListedWithNullDeviceFieldsAndIsCurrentForItsOwnToken() throws {
        let h = try H()
        let reader = try h.createAccount()
        let list = try h.client.get("/v1/accounts/\(reader.id)/sessions", as: reader.token)
        #expect(list.status == 200)
        let sessions = list.objects("sessions")
        #expect(sessions.count == 1)
        let first = try #require(sessions.first)
        #expect((first["sessionId"] as? String)?.isEmpty == false)
        let device = try #require(first["device"] as? [String: Any])
        #expect(device.keys.sorted() == ["id", "name", "platform"])
        #expect(device.values.allSatisfy { $0 is NSNull })
        #expect(first["createdAt"] as? String == "2026-03-01T00:00:00.000Z")
        #expect(first["lastUsedAt"] as? String == "2026-03-01T00:00:00.000Z")
        #expect(first["current"] as? Bool == true)
        let service = try h.createKey(#"{"role":"service"}"#)
        let asService = try h.client.get("/v1/accounts/\(reader.id)/sessions", as: service.secret)
        #expect(asService.objects("sessions").first?["current"] as? Bool == false)
        let other = try h.createAccount()
        #expect(try h.client.get("/v1/accounts/\(reader.id)/sessions", as: other.token).status == 403)
        #expect(try h.client.get("/v1/accounts/\(reader.id)/sessions").status == 401)
        #expect(try h.client.get("/v1/accounts/acct-nobody/sessions", as: service.secret).status == 404)
    }

    @Test func e34SignOutEndsTheSessionAtOnceAndASecondSignOutIs401() throws {
        let h = try H()
        let reader = try h.createAccount()
        #expect(try h.client.get("/v1/accounts/\(reader.id)/entitlements", as: reader.token).status == 200)  // cached now
        let out = try h.client.delete("/v1/sessions/current", as: reader.token)
        #expect(out.status == 200)
        #expect((out.json["sessionId"] as? String)?.isEmpty == false)
        #expect(out.json["current"] as? Bool == true)
        #expect(try h.client.get("/v1/accounts/\(reader.id)/entitlements", as: reader.token).status == 401)
        #expect(try h.client.delete("/v1/sessions/current", as: reader.token).status == 401)
        #expect(try h.client.delete("/v1/sessions/current", as: H.adminKey).status == 403, "a key is not a session")
        #expect(try h.client.delete("/v1/sessions/current").status == 401)
        // Service and admin still reach the account: an anonymous account's purchases can be restored.
        let sessions = try h.client.get("/v1/accounts/\(reader.id)/sessions", as: H.adminKey)
        #expect(sessions.status == 200 && sessions.objects("sessions").isEmpty)
    }

    @Test func e34TheAccountServiceOrAdminEndsOneSessionAndAnEndedOrUnknownOneIs404() throws {
        let verifier = ScriptedIdentityVerifier()
        let h = try H(identityVerifier: verifier)
        let phone = try h.signIn(verifier, subject: "s1", device: "phone").signedIn()
        let tablet = try h.signIn(verifier, subject: "s1", device: "tablet").signedIn()
        #expect(tablet.accountId == phone.accountId)
        let path = "/v1/accounts/\(phone.accountId)/sessions"
        let ended = try h.client.delete("\(path)/\(tablet.sessionId)", as: phone.token)
        #expect(ended.status == 200)
        #expect(ended.json["sessionId"] as? String == tablet.sessionId)
        #expect(ended.json["current"] as? Bool == false)
        #expect((ended.json["device"] as? [String: Any])?["id"] as? String == "tablet")
        #expect(try h.client.get(path, as: tablet.token).status == 401)
        #expect(try h.client.delete("\(path)/\(tablet.sessionId)", as: phone.token).errorCode == "not_found")
        #expect(try h.client.delete("\(path)/sess-unknown", as: H.adminKey).status == 404)
        let other = try h.createAccount()
        let otherSession = try #require(try h.client.get("/v1/accounts/\(other.id)/sessions", as: other.token)
            .objects("sessions").first?["sessionId"] as? String)
        #expect(try h.client.delete("\(path)/\(otherSession)", as: H.adminKey).status == 404, "another account's session")
        #expect(try h.client.get("/v1/accounts/\(other.id)/sessions", as: other.token).status == 200)
        #expect(try h.client.get(path, as: phone.token).objects("sessions").map { $0["sessionId"] as? String } == [phone.sessionId])
    }

    @Test func e34LastUsedAtMovesAtMostOnceAnHourAndAnIdleSessionHasEnded() throws {
        let h = try H(configure: { $0.sessionIdleDays = 2 })
        let reader = try h.createAccount()
        let path = "/v1/accounts/\(reader.id)/sessions"
        func lastUsed() throws -> String? {
            let sessions = try h.client.get(path, as: H.adminKey).objects("sessions")
            return sessions.first?["lastUsedAt"] as? String
        }
        h.clock.set(Instant(rfc3339: "2026-03-01T00:59:00Z")!)
        #expect(try h.client.get(path, as: reader.token).status == 200)
        #expect(try lastUsed() == "2026-03-01T00:00:00.000Z", "a request within the hour is not a write")
        h.clock.set(Instant(rfc3339: "2026-03-01T01:00:00Z")!)
        #expect(try h.client.get(path, as: reader.token).status == 200)
        #expect(try lastUsed() == "2026-03-01T01:00:00.000Z")
        h.clock.set(Instant(rfc3339: "2026-03-01T01:30:00Z")!)
        #expect(try h.client.get(path, as: reader.token).status == 200)
        #expect(try lastUsed() == "2026-03-01T01:00:00.000Z")
        // Unused for two days: ended, listed no more, its token 401 (also from the cache).
        h.clock.set(Instant(rfc3339: "2026-03-03T01:00:01Z")!)
        #expect(try h.client.get(path, as: reader.token).status == 401)
        #expect(try h.client.get(path, as: H.adminKey).objects("sessions").isEmpty)
    }

    @Test func e34AtTheDeviceLimitANewSessionIs409WithTheLiveSessionsAndNothingChanges() throws {
        let verifier = ScriptedIdentityVerifier()
        let h = try H(identityVerifier: verifier) { $0.deviceLimit = 2 }
        let phone = try h.signIn(verifier, subject: "s1", device: "phone").signedIn()
        let tablet = try h.signIn(verifier, subject: "s1", device: "tablet").signedIn()
        let nonce = verifier.issueNonce()
        let body = h.signInBody(verifier, subject: "s1", device: "laptop", nonce: nonce)
        let refused = try h.client.post("/v1/sessions", json: body)
        #expect(refused.status == 409)
        #expect(refused.errorCode == "device_limit")
        let error = try #require(refused.json["error"] as? [String: Any])
        let listed = try #require(error["sessions"] as? [[String: Any]])
        #expect(Set(listed.compactMap { $0["sessionId"] as? String }) == [phone.sessionId, tablet.sessionId])
        #expect(listed.allSatisfy { ($0["device"] as? [String: Any])?["name"] != nil && $0["current"] as? Bool == false })
        #expect(!verifier.isUsed(nonce), "a device_limit leaves its nonce unused")
        #expect(try h.client.get("/v1/accounts/\(phone.accountId)/sessions", as: phone.token).objects("sessions").count == 2)
        // The same body naming a session to replace passes, with the same nonce.
        let replacing = h.signInBody(verifier, subject: "s1", device: "laptop", replace: tablet.sessionId, nonce: nonce)
        let laptop = try h.client.post("/v1/sessions", json: replacing).signedIn()
        #expect(try h.client.get("/v1/accounts/\(phone.accountId)/sessions", as: tablet.token).status == 401)
        let live = try h.client.get("/v1/accounts/\(phone.accountId)/sessions", as: laptop.token).objects("sessions")
        #expect(Set(live.compactMap { $0["sessionId"] as? String }) == [phone.sessionId, laptop.sessionId])
        #expect(live.filter { $0["current"] as? Bool == true }.map { $0["sessionId"] as? String } == [laptop.sessionId])
        // The same device signing in again replaces its own session and takes no new place.
        let again = try h.signIn(verifier, subject: "s1", device: "phone").signedIn()
        #expect(try h.client.get("/v1/accounts/\(phone.accountId)/sessions", as: phone.token).status == 401)
        #expect(try h.client.get("/v1/accounts/\(again.accountId)/sessions", as: again.token).objects("sessions").count == 2)
    }

    @Test func e34TheLimitNeverBlocksAnythingButANewSession() throws {
        let h = try H(configure: { $0.deviceLimit = 1 })
        try h.seedCatalog()
        let reader = try h.createAccount()
        try h.subscribe(reader.id)
        #expect(try h.client.get("/v1/accounts/\(reader.id)/entitlements", as: reader.token).status == 200)
        #expect(try h.client.get("/v1/accounts/\(reader.id)/issues", as: reader.token).status == 200)
        #expect(try h.token(for: reader, issue: "2026-01").status == 200)
        #expect(try h.client.post("/v1/accounts/\(reader.id)/link-codes", as: reader.token).status == 201)
        let code = try h.linkCode(for: reader.id, as: reader.token)
        let refused = try h.linkSignIn(code: code, device: "web")
        #expect(refused.status == 409 && refused.errorCode == "device_limit")
        #expect(try h.linkSignIn(code: code, device: "web").status == 409, "the code was not used up")
    }
}
