import Entitle
import Foundation
@testable import GatewayConfiguration
import Testing
import Wire
import GatewayTesting

/// E32: which account a sign-in reaches (the table's six rows), the merge of an anonymous
/// account into an identified one, and what names a merged account afterwards.
@Suite struct SignInRouteTests {
    let verifier = ScriptedIdentityVerifier()
    let h: GatewayHarness

    init() throws {
        h = try GatewayHarness(identityVerifier: verifier) { $0.transferPolicy = .keep }
        try h.seedCatalog()
    }

    private func sessions(_ accountId: String) throws -> [[String: Any]] {
        try h.client.get("/v1/accounts/\(accountId)/sessions", as: H.adminKey).objects("sessions")
    }

    @Test func e32Row1ANewIdentityWithoutBearerMakesANewIdentifiedAccount() throws {
        let response = try h.signIn(verifier, subject: "s1", email: "reader@example.com", device: "phone")
        #expect(response.status == 201)
        #expect(response.json.keys.sorted() == ["accountId", "created", "mergedFrom", "sessionId", "sessionToken"])
        #expect(response.json["created"] as? Bool == true)
        #expect(response.json["mergedFrom"] as? [String] == [])
        let session = try response.signedIn()
        #expect(try h.client.get("/v1/accounts/\(session.accountId)/entitlements", as: session.token).status == 200)
        let listed = try sessions(session.accountId)
        #expect(listed.count == 1)
        #expect((listed.first?["device"] as? [String: Any])?["id"] as? String == "phone")
        // Repeating the sign-in changes nothing more: a new session only, on the same account.
        let again = try h.signIn(verifier, subject: "s1", device: "tablet")
        #expect(again.json["accountId"] as? String == session.accountId && again.json["created"] as? Bool == false)
    }

    @Test func e32Row2ANewIdentityWithAnAnonymousBearerIsAttachedAndReplacesTheBearerSession() throws {
        let reader = try h.createAccount()
        let response = try h.signIn(verifier, subject: "s2", device: "phone", bearer: reader.token)
        let session = try response.signedIn()
        #expect(session.accountId == reader.id)
        #expect(response.json["created"] as? Bool == false)
        #expect(try h.client.get("/v1/accounts/\(reader.id)/entitlements", as: reader.token).status == 401,
                "the device keeps one session")
        #expect(try sessions(reader.id).map { $0["sessionId"] as? String } == [session.sessionId])
    }

    @Test func e32Row3ANewIdentityWithAnIdentifiedBearerMakesAnotherAccountAndLeavesTheBearerAlone() throws {
        let first = try h.signIn(verifier, subject: "alice", device: "shared-ipad").signedIn()
        let response = try h.signIn(verifier, provider: "google", subject: "bob", device: "shared-ipad", bearer: first.token)
        #expect(response.json["created"] as? Bool == true)
        let second = try response.signedIn()
        #expect(second.accountId != first.accountId)
        #expect(try h.client.get("/v1/accounts/\(first.accountId)/entitlements", as: first.token).status == 200)
    }

    @Test func e32Rows4And6AHeldIdentityReachesItsHolderAndLeavesAnIdentifiedBearerAlone() throws {
        let holder = try h.signIn(verifier, subject: "s4", device: "phone").signedIn()
        let other = try h.signIn(verifier, subject: "s6", device: "tablet").signedIn()
        let response = try h.signIn(verifier, subject: "s4", device: "tablet", bearer: other.token)
        #expect(response.json["accountId"] as? String == holder.accountId)
        #expect(response.json["created"] as? Bool == false && response.json["mergedFrom"] as? [String] == [])
        #expect(try h.client.get("/v1/accounts/\(other.accountId)/entitlements", as: other.token).status == 200)
        // A bearer that is no live session (unknown, a key) counts as absent.
        for bearer in ["not-a-session", H.adminKey] {
            let absent = try h.signIn(verifier, subject: "s4", device: "laptop", bearer: bearer)
            #expect(absent.status == 201 && absent.json["accountId"] as? String == holder.accountId)
        }
        // The bearer's own account: its session is replaced.
        let own = try h.signIn(verifier, subject: "s4", device: "phone-2", bearer: holder.token).signedIn()
        #expect(own.accountId == holder.accountId)
        #expect(try h.client.get("/v1/accounts/\(holder.accountId)/entitlements", as: holder.token).status == 401)
    }

    @Test func e32Row5AnAnonymousBearerIsMergedEvenUnderTheKeepPolicy() throws {
        let holder = try h.signIn(verifier, subject: "s5", device: "phone").signedIn()
        let anonymous = try h.createAccount()
        try h.subscribe(anonymous.id)
        let grant = #"{"source":"print","externalId":"p-1","publications":["weekly"],"start":"2026-02-01T00:00:00Z","end":"2026-12-01T00:00:00Z"}"#
        #expect(try h.client.post("/v1/accounts/\(anonymous.id)/grants", as: H.adminKey, json: grant).status == 201)
        let device = #"{"apnsToken":"\#(String(repeating: "ab", count: 32))","environment":"production"}"#
        #expect(try h.client.post("/v1/accounts/\(anonymous.id)/devices", as: anonymous.token, json: device).status == 201)
        let code = try h.linkCode(for: anonymous.id, as: anonymous.token)
        let response = try h.signIn(verifier, subject: "s5", device: "ipad", bearer: anonymous.token)
        #expect(response.status == 201)
        #expect(response.json["accountId"] as? String == holder.accountId)
        #expect(response.json["mergedFrom"] as? [String] == [anonymous.id])
        #expect(response.json["created"] as? Bool == false)
        let entitlements = try h.client.get("/v1/accounts/\(holder.accountId)/entitlements", as: holder.token)
        #expect(entitlements.objects("subscriptions").map { $0["originalTransactionId"] as? String } == ["sub-1"])
        #expect(entitlements.objects("grants").map { $0["externalId"] as? String } == ["p-1"])
        // A ends: its sessions 401, its link codes end, its id 404 account_merged to keys.
        #expect(try h.client.get("/v1/accounts/\(anonymous.id)/entitlements", as: anonymous.token).status == 401)
        #expect(try h.linkSignIn(code: code, device: "web").errorCode == "link_code_not_found")
        let service = try h.createKey(#"{"role":"service"}"#)
        for key in [H.adminKey, service.secret] {
            let merged = try h.client.get("/v1/accounts/\(anonymous.id)/entitlements", as: key)
            #expect(merged.status == 404 && merged.errorCode == "account_merged")
            #expect((merged.json["error"] as? [String: Any])?["mergedInto"] as? String == holder.accountId)
        }
        let toOthers = try h.client.get("/v1/accounts/\(anonymous.id)/entitlements", as: holder.token)
        #expect(toOthers.status == 404 && toOthers.errorCode == "not_found")
        #expect(try h.client.post("/v1/accounts/\(anonymous.id)/grants", as: H.adminKey, json: grant).errorCode == "account_merged")
        // Both histories say so; A's stays readable to keys.
        let onB = try h.client.get("/v1/accounts/\(holder.accountId)/history", as: H.adminKey).objects("events")
        let mergedOnB = try #require(onB.first { $0["kind"] as? String == "merged" })
        #expect(mergedOnB["source"] as? String == "signIn")
        #expect(mergedOnB["mergedFrom"] as? String == anonymous.id)
        let onA = try h.client.get("/v1/accounts/\(anonymous.id)/history", as: H.adminKey)
        #expect(onA.status == 200)
        let mergedOnA = try #require(onA.objects("events").first { $0["kind"] as? String == "merged" })
        #expect(mergedOnA["mergedInto"] as? String == holder.accountId)
    }

    @Test func e32AfterAMergeTheEntitlementsAreTheUnionOfBothAccountsFacts() throws {
        let holder = try h.signIn(verifier, subject: "u1", device: "phone").signedIn()
        try h.subscribe(holder.accountId, original: "sub-b")
        let anonymous = try h.createAccount()
        try h.store(VerifiedFacts(transactions: [Transaction(environment: .production, transactionId: "old-1",
                                                             originalTransactionId: "old-1", productId: "monthly.old",
                                                             purchaseDate: Instant(rfc3339: "2024-06-01T00:00:00Z")!,
                                                             source: .receipt)]), for: anonymous.id)
        // One account holding every fact of both, for comparison.
        let union = try h.createAccount()
        try h.subscribe(union.id, original: "sub-u")
        try h.store(VerifiedFacts(transactions: [Transaction(environment: .production, transactionId: "old-u",
                                                             originalTransactionId: "old-u", productId: "monthly.old",
                                                             purchaseDate: Instant(rfc3339: "2024-06-01T00:00:00Z")!,
                                                             source: .receipt)]), for: union.id)
        #expect(try h.signIn(verifier, subject: "u1", device: "ipad", bearer: anonymous.token).status == 201)
        func issues(_ id: String) throws -> [String] {
            try h.client.get("/v1/accounts/\(id)/issues?entitled=true", as: H.adminKey).objects("issues")
                .map { issue in "\(issue["publicationId"] as? String ?? "")/\(issue["id"] as? String ?? "")" }
        }
        #expect(try issues(holder.accountId) == issues(union.id))
        #expect(try !issues(holder.accountId).isEmpty)
    }

    @Test func e32AnAppAccountTokenOfAMergedAccountReachesTheAccountItWasMergedInto() throws {
        let uuid = "3f0e4c1a-8d5b-4e6f-9a7c-2b1d0e9f8a7b"
        let created = try h.client.post("/v1/accounts", json: #"{"appAccountToken":"\#(uuid)"}"#)
        let anonymous = (id: try #require(created.json["accountId"] as? String), token: try #require(created.json["accountToken"] as? String))
        let holder = try h.signIn(verifier, subject: "t1", device: "phone").signedIn()
        #expect(try h.signIn(verifier, subject: "t1", device: "ipad", bearer: anonymous.token).status == 201)
        let poster = try h.createAccount()
        let purchase = Transaction(environment: .production, transactionId: "v2-1", originalTransactionId: "v2-1",
                                   productId: "monthly.1m", purchaseDate: Instant(rfc3339: "2026-02-01T00:00:00Z")!,
                                   expiresDate: Instant(rfc3339: "2026-04-01T00:00:00Z")!, appAccountToken: uuid,
                                   source: .signedTransaction)
        try h.store(VerifiedFacts(transactions: [purchase]), for: poster.id)
        let found = try h.client.get("/v1/lookup?originalTransactionId=v2-1", as: H.adminKey)
        #expect(found.json["accountId"] as? String == holder.accountId)
    }

    @Test func e32AMergeIntoAnAccountAtItsDeviceLimitIsRefusedAndNothingIsMerged() throws {
        let h = try GatewayHarness(identityVerifier: verifier) { $0.deviceLimit = 1 }
        let holder = try h.signIn(verifier, subject: "l1", device: "phone").signedIn()
        let anonymous = try h.createAccount()
        let refused = try h.signIn(verifier, subject: "l1", device: "ipad", bearer: anonymous.token)
        #expect(refused.status == 409 && refused.errorCode == "device_limit")
        #expect(try h.client.get("/v1/accounts/\(anonymous.id)/entitlements", as: anonymous.token).status == 200)
        let replaced = try h.signIn(verifier, subject: "l1", device: "ipad", bearer: anonymous.token, replace: holder.sessionId)
        #expect(replaced.json["mergedFrom"] as? [String] == [anonymous.id])
    }

    @Test func e31WithoutProvidersASignInWithAnIDTokenIsNotConfiguredAndAnInvalidTokenIs401() throws {
        let plain = try H()
        let response = try plain.client.post("/v1/sessions", json: #"{"provider":"apple","idToken":"x","nonce":"n","device":{"id":"d"}}"#)
        #expect(response.status == 409 && response.errorCode == "not_configured")
        let reader = try plain.createAccount()
        let identity = try plain.client.post("/v1/accounts/\(reader.id)/identities", as: reader.token,
                                             json: #"{"provider":"apple","idToken":"x","nonce":"n"}"#)
        #expect(identity.status == 409 && identity.errorCode == "not_configured")
        let refused = try h.client.post("/v1/sessions", json: #"{"provider":"apple","idToken":"unknown","nonce":"\#(verifier.issueNonce())","device":{"id":"d"}}"#)
        #expect(refused.status == 401)
        for body in [#"{"provider":"apple","idToken":"x","nonce":"n"}"#, #"{"provider":"apple","nonce":"n","device":{"id":"d"}}"#,
                     #"{"provider":"apple","idToken":"x","nonce":"n","device":{"id":""}}"#, #"[]"#] {
            #expect(try h.client.post("/v1/sessions", json: body).status == 400, "\(body)")
        }
    }

    @Test func e32IdentitiesAreAddedAndRemovedByTheAccountsOwnSessionOnly() throws {
        let reader = try h.signIn(verifier, subject: "i1", email: "Reader@Example.com", device: "phone").signedIn()
        let path = "/v1/accounts/\(reader.accountId)/identities"
        func addBody(_ provider: String, _ subject: String) -> String {
            verifier.script("tok-\(provider)-\(subject)", VerifiedIdentity(provider: provider, subject: subject))
            return #"{"provider":"\#(provider)","idToken":"tok-\#(provider)-\#(subject)","nonce":"\#(verifier.issueNonce())"}"#
        }
        let added = try h.client.post(path, as: reader.token, json: addBody("google", "g1"))
        #expect(added.status == 201)
        #expect(added.json["provider"] as? String == "google" && added.json["subject"] as? String == "g1")
        #expect(try h.client.post(path, as: H.adminKey, json: addBody("publisher", "p1")).status == 403)
        #expect(try h.client.post(path, as: reader.token, json: addBody("google", "g2")).errorCode == "conflict")
        let other = try h.signIn(verifier, provider: "publisher", subject: "p9", device: "web").signedIn()
        let inUse = try h.client.post(path, as: reader.token, json: addBody("publisher", "p9"))
        #expect(inUse.status == 409 && inUse.errorCode == "identity_in_use")
        #expect(try h.signIn(verifier, provider: "publisher", subject: "p9", device: "web-2").signedIn().accountId == other.accountId)
        // Removing: the google identity (no session made with it) goes; apple is then the last.
        let removed = try h.client.delete("\(path)/google", as: reader.token)
        #expect(removed.status == 200 && removed.json["subject"] as? String == "g1")
        #expect(try h.client.delete("\(path)/google", as: reader.token).status == 404)
        #expect(try h.client.delete("\(path)/apple", as: reader.token).errorCode == "last_identity")
        #expect(try h.client.delete("\(path)/apple", as: H.adminKey).status == 403)
        // Support finds the account by the kept email, without case.
        let found = try h.client.get("/v1/lookup?email=reader@example.com", as: H.adminKey)
        #expect(found.status == 200 && found.json["accountId"] as? String == reader.accountId)
        #expect(try h.client.get("/v1/lookup?email=nobody@example.com", as: H.adminKey).status == 404)
        #expect(try h.client.get("/v1/lookup?email=reader@example.com", as: reader.token).status == 403)
    }
}
