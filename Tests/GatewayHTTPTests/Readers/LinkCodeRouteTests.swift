import Foundation
@testable import GatewayConfiguration
import Testing
import Wire
import GatewayTesting

/// E33: link codes put another device on an account without an identity provider.
@Suite struct LinkCodeRouteTests {
    @Test func e33ACodeIsEightCharactersOfTheAlphabetValidFifteenMinutesAndSingleUse() throws {
        let h = try H()
        let reader = try h.createAccount()
        let created = try h.client.post("/v1/accounts/\(reader.id)/link-codes", as: reader.token)
        #expect(created.status == 201)
        let code = try #require(created.json["code"] as? String)
        #expect(code.count == 8 && code.allSatisfy { "ABCDEFGHJKLMNPQRSTUVWXYZ23456789".contains($0) })
        #expect(created.json["expiresAt"] as? String == "2026-03-01T00:15:00.000Z")
        // Case, spaces and hyphens are ignored.
        let typed = code.prefix(4).lowercased() + "- " + code.dropFirst(4).lowercased()
        let web = try h.linkSignIn(code: typed, device: "web-1")
        #expect(web.status == 201)
        #expect(web.json["accountId"] as? String == reader.id)
        #expect(web.json["created"] as? Bool == false)
        #expect(web.json["mergedFrom"] as? [String] == [])
        let session = try web.signedIn()
        #expect(try h.client.get("/v1/accounts/\(reader.id)/entitlements", as: session.token).status == 200)
        let used = try h.linkSignIn(code: code, device: "web-2")
        #expect(used.status == 404 && used.errorCode == "link_code_not_found")
    }

    @Test func e33UnknownAndExpiredCodesAreOneAnswerAndCreatingACodeNeverEndsAnother() throws {
        let h = try H()
        let reader = try h.createAccount()
        let first = try h.linkCode(for: reader.id, as: reader.token)
        let service = try h.createKey(#"{"role":"service"}"#)
        let second = try h.linkCode(for: reader.id, as: service.secret)
        let third = try h.linkCode(for: reader.id, as: H.adminKey)
        #expect(Set([first, second, third]).count == 3)
        #expect(try h.linkSignIn(code: second, device: "d2").status == 201)
        #expect(try h.linkSignIn(code: first, device: "d1").status == 201, "a later code did not end the first")
        #expect(try h.linkSignIn(code: "ZZZZZZZZ", device: "d4").errorCode == "link_code_not_found")
        h.clock.set(Instant(rfc3339: "2026-03-01T00:15:00Z")!)
        let expired = try h.linkSignIn(code: third, device: "d3")
        #expect(expired.status == 404 && expired.errorCode == "link_code_not_found")
        let other = try h.createAccount()
        #expect(try h.client.post("/v1/accounts/\(reader.id)/link-codes", as: other.token).status == 403)
        #expect(try h.client.post("/v1/accounts/acct-nobody/link-codes", as: H.adminKey).status == 404)
        let noDevice = try h.client.post("/v1/sessions", json: #"{"linkCode":"\#(first)"}"#)
        #expect(noDevice.status == 400)
    }

    @Test func e33TenFailuresFromOneAddressIn15MinutesAre429WithRetryAfter() throws {
        let h = try H()
        let reader = try h.createAccount()
        let code = try h.linkCode(for: reader.id, as: reader.token)
        for i in 0..<10 {
            #expect(try h.linkSignIn(code: "WRONG\(i)XY", device: "d", sourceAddress: "203.0.113.9").status == 404)
        }
        let limited = try h.linkSignIn(code: code, device: "d", sourceAddress: "203.0.113.9")
        #expect(limited.status == 429 && limited.errorCode == "rate_limited")
        #expect(limited.header("Retry-After") != nil)
        #expect(try h.linkSignIn(code: code, device: "d", sourceAddress: "203.0.113.10").status == 201,
                "another address is not limited, and the limited try did not use the code")
        h.clock.set(Instant(rfc3339: "2026-03-01T00:15:01Z")!)
        let reader2 = try h.createAccount()
        let later = try h.linkCode(for: reader2.id, as: reader2.token)
        #expect(try h.linkSignIn(code: later, device: "d", sourceAddress: "203.0.113.9").status == 201)
    }

    @Test func e33AnAnonymousBearerIsMergedIntoTheCodesAccount() throws {
        let h = try H()
        try h.seedCatalog()
        let web = try h.createAccount()
        let app = try h.createAccount()
        try h.subscribe(app.id)
        let code = try h.linkCode(for: web.id, as: web.token)
        let linked = try h.linkSignIn(code: code, device: "ipad", bearer: app.token)
        #expect(linked.status == 201)
        #expect(linked.json["accountId"] as? String == web.id)
        #expect(linked.json["created"] as? Bool == false)
        #expect(linked.json["mergedFrom"] as? [String] == [app.id])
        let session = try linked.signedIn()
        let subscriptions = try h.client.get("/v1/accounts/\(web.id)/entitlements", as: session.token).objects("subscriptions")
        #expect(subscriptions.map { $0["originalTransactionId"] as? String } == ["sub-1"])
        #expect(try h.client.get("/v1/accounts/\(app.id)/entitlements", as: app.token).status == 401)
    }
}
