import Foundation
@testable import GatewayConfiguration
import GatewayCrypto
import GatewayStore
import GatewayTesting
import Testing
import Wire

/// readers.md E31–E34 and Sign in with Apple's notifications through the routes, with the real
/// verifier: the gateway is configured with the fixture's provider (its JWKS on a socket), and
/// every token is minted by PyJWT or the gateway's own signers, forged ones included.
@Suite struct E31SignInRouteEndToEndTests {
    static let device = #"{"id":"8d0c2f3e-phone","name":"Reader's phone","platform":"ios"}"#

    static func body(provider: String = "publisher", token: String, nonce: String, device: String = device,
                     replace: String? = nil) -> String {
        let replacing = replace.map { #","replaceSessionId":"\#($0)""# } ?? ""
        return #"{"provider":"\#(provider)","idToken":"\#(token)","nonce":"\#(nonce)","device":\#(device)\#(replacing)}"#
    }

    static func device(_ id: String) -> String { #"{"id":"\#(id)","name":"\#(id)","platform":"ios"}"# }

    func signIn(_ g: E31SignInGateway, _ body: String, bearer: String? = nil, address: String? = nil) throws -> APIResponse {
        try g.h.client.send("POST", "/v1/sessions", as: bearer, body: Array(body.utf8), sourceAddress: address)
    }

    /// A good RS256 token of `subject` for a fresh nonce, signed in through the route.
    func signIn(_ g: E31SignInGateway, subject: String, provider: String = "publisher", device: String = device,
                bearer: String? = nil, replace: String? = nil) throws -> APIResponse {
        let nonce = try g.nonce()
        var claims = IdentityProviderFixture.claims(nonce: nonce, now: g.now, subject: subject)
        if provider == "apple" { claims["iss"] = .string(E31SignInGateway.appleIssuer) }
        let token = g.provider.token(claims)
        return try signIn(g, Self.body(provider: provider, token: token, nonce: nonce, device: device, replace: replace),
                          bearer: bearer)
    }

    func accountIds(_ g: E31SignInGateway) throws -> [String] {
        try g.h.runtime.core.store.read { tx throws(StoreError) in try tx.accountIds(after: nil, limit: 100) }
    }

    func identity(_ g: E31SignInGateway, _ provider: String, _ subject: String) throws -> Identity? {
        try g.h.runtime.core.store.read { tx throws(StoreError) in
            try tx.identity(IdentityKey(provider: provider, subject: subject))
        }
    }

    func sessions(_ g: E31SignInGateway, _ accountId: String) throws -> [[String: Any]] {
        try g.h.client.get("/v1/accounts/\(accountId)/sessions", as: H.adminKey).objects("sessions")
    }

    func reason(_ response: APIResponse) -> String? { (response.json["error"] as? [String: Any])?["reason"] as? String }

    // MARK: E31

    @Test(arguments: HarnessBackend.all)
    func e31PyJWTTokensWithAnIssuedNonceSignInOnceAndTheSessionWorks(_ backend: HarnessBackend) throws {
        let g = try E31SignInGateway(backend)
        for (alg, subject) in [("RS256", "rs-reader"), ("ES256", "es-reader")] {
            let nonce = try g.nonce()
            let token = try g.provider.pyjwtToken(IdentityProviderFixture.claims(nonce: nonce, now: g.now, subject: subject), alg: alg)
            let body = Self.body(token: token, nonce: nonce, device: Self.device("device-\(alg)"))
            let answer = try signIn(g, body)
            #expect(answer.status == 201, "\(alg): \(answer.text)")
            #expect(answer.json.keys.sorted() == ["accountId", "created", "mergedFrom", "sessionId", "sessionToken"], "\(alg)")
            #expect(answer.json["created"] as? Bool == true && answer.json["mergedFrom"] as? [String] == [], "\(alg)")
            let session = try answer.signedIn()
            let entitlements = try g.h.client.get("/v1/accounts/\(session.accountId)/entitlements", as: session.token)
            #expect(entitlements.status == 200, "\(alg): the session token works on account routes")
            #expect(try identity(g, "publisher", subject)?.accountId == session.accountId, "\(alg)")

            let again = try signIn(g, body)
            #expect(again.status == 401 && again.errorCode == "invalid_id_token" && reason(again) == "nonce",
                    "\(alg): the same nonce again: \(again.text)")
            #expect(try sessions(g, session.accountId).count == 1, "\(alg): the refused repeat made no session")
        }
        #expect(try accountIds(g).count == 2)
    }

    @Test(arguments: HarnessBackend.all)
    func e31AppleHashedNonceIsAccepted(_ backend: HarnessBackend) throws {
        let g = try E31SignInGateway(backend, apple: true)
        let nonce = try g.nonce()
        var claims = IdentityProviderFixture.claims(nonce: IdentityProviderFixture.hashedNonce(nonce), now: g.now, subject: "001.h")
        claims["iss"] = .string(E31SignInGateway.appleIssuer)
        let hashed = IdentityProviderFixture.hashedNonce(nonce)
        #expect(hashed.count == 64 && hashed == hashed.lowercased() && hashed != nonce)
        let answer = try signIn(g, Self.body(provider: "apple", token: try g.provider.pyjwtToken(claims, alg: "ES256"), nonce: nonce))
        #expect(answer.status == 201, "\(answer.text)")
        let session = try answer.signedIn()
        #expect(try identity(g, "apple", "001.h")?.accountId == session.accountId)
    }

    @Test(arguments: HarnessBackend.all)
    func e31EveryAttackIs401ForItsReasonAndStoresNothing(_ backend: HarnessBackend) throws {
        let g = try E31SignInGateway(backend)
        let p = g.provider, now = g.now.secondsSinceEpoch
        guard let stranger = RSAPrivateKey(generatingBits: 2048) else { throw HarnessError.unexpected("no RSA key") }
        func changed(_ nonce: String, _ name: String, _ value: JSONValue) -> String {
            var claims = g.claims(nonce)
            claims[name] = value
            return p.token(claims)
        }
        let other: JSONValue = .string("com.example.other")
        let clientId: JSONValue = .string(IdentityProviderFixture.clientId)
        let neverIssued = Base64URL.encode([UInt8](repeating: 9, count: 32))
        // The nonce a failed request used up: a second request with it fails for the nonce.
        let spent = try g.nonce()
        let first = try signIn(g, Self.body(token: changed(spent, "iss", .string("https://evil.example")), nonce: spent),
                               address: "192.0.2.200")
        #expect(first.status == 401 && reason(first) == "issuer")

        // (name, reason, provider, body nonce, token for that nonce)
        let attacks: [(String, String, String, (String) throws -> (String, String))] = [
            ("alg none", "algorithm", "publisher", { ($0, try p.pyjwtToken(g.claims($0), alg: "none")) }),
            ("HS256 keyed with the RSA public key", "algorithm", "publisher", { ($0, try p.hs256WithPublicKey(g.claims($0))) }),
            ("a key not in the JWKS", "unknown_key", "publisher", { nonce in
                let header = Array(#"{"alg":"RS256","kid":"stranger","typ":"JWT"}"#.utf8)
                let payload = JSONValue.object(JSONObject(g.claims(nonce).sorted { $0.key < $1.key }.map { JSONMember($0.key, $0.value) }))
                return (nonce, CompactJWS.serialize(header: header, payload: payload.serializedBytes) { stranger.signRS256($0) } ?? "")
            }),
            ("a changed byte", "signature", "publisher", { ($0, IdentityProviderFixture.tampered(try p.pyjwtToken(g.claims($0), alg: "RS256"))) }),
            ("wrong issuer", "issuer", "publisher", { ($0, changed($0, "iss", .string("https://evil.example"))) }),
            ("foreign audience", "audience", "publisher", { ($0, changed($0, "aud", other)) }),
            ("extra audience", "audience", "publisher", { ($0, changed($0, "aud", .array([clientId, other]))) }),
            ("foreign azp", "audience", "publisher", { ($0, changed($0, "azp", other)) }),
            ("expired", "expired", "publisher", { ($0, changed($0, "exp", .integer(now - 61))) }),
            ("iat too old", "issued_at", "publisher", { ($0, changed($0, "iat", .integer(now - 600 - 61))) }),
            ("nbf in the future", "issued_at", "publisher", { ($0, changed($0, "nbf", .integer(now + 61))) }),
            ("a nonce never issued", "nonce", "publisher", { _ in (neverIssued, p.token(g.claims(neverIssued))) }),
            ("a nonce used twice", "nonce", "publisher", { _ in (spent, p.token(g.claims(spent))) }),
            ("unknown provider id", "provider", "elsewhere", { ($0, p.token(g.claims($0))) }),
        ]
        for (index, (name, expected, provider, mint)) in attacks.enumerated() {
            let (nonce, token) = try mint(try g.nonce())
            let answer = try signIn(g, Self.body(provider: provider, token: token, nonce: nonce), address: "192.0.2.\(index + 1)")
            #expect(answer.status == 401 && answer.errorCode == "invalid_id_token", "\(name): \(answer.text)")
            #expect(reason(answer) == expected, "\(name): \(answer.text)")
            #expect(answer.json["reason"] == nil, "\(name): the reason sits inside the error object")
        }
        #expect(try accountIds(g).isEmpty, "no account was made")
        #expect(try identity(g, "publisher", "reader-1") == nil && identity(g, "elsewhere", "reader-1") == nil, "no identity was made")
        #expect(try g.h.client.get("/v1/lookup?email=reader@example.com", as: H.adminKey).status == 404, "no email was kept")
    }

    @Test(arguments: HarnessBackend.all)
    func e31TheEleventhFailureFromOneAddressIsRateLimitedAndUsesNoNonce(_ backend: HarnessBackend) throws {
        let g = try E31SignInGateway(backend)
        let address = "198.51.100.7"
        for attempt in 1...10 {
            let nonce = try g.nonce()
            let token = g.provider.token(g.claims(nonce).merging(["iss": .string("https://evil.example")]) { $1 })
            let answer = try signIn(g, Self.body(token: token, nonce: nonce), address: address)
            #expect(answer.status == 401 && reason(answer) == "issuer", "failure \(attempt): \(answer.text)")
        }
        let nonce = try g.nonce()
        let good = Self.body(token: g.provider.token(g.claims(nonce)), nonce: nonce)
        let limited = try signIn(g, good, address: address)
        #expect(limited.status == 429 && limited.errorCode == "rate_limited", "\(limited.text)")
        #expect(Int(limited.header("Retry-After") ?? "").map { $0 > 0 && $0 <= 900 } == true, "Retry-After: \(limited.headers)")
        #expect(try g.isLive(nonce), "a refused address uses no nonce")
        #expect(try accountIds(g).isEmpty)
        let elsewhere = try signIn(g, good, address: "198.51.100.8")
        #expect(elsewhere.status == 201, "another address is not limited: \(elsewhere.text)")
    }

    // MARK: E32

    @Test(arguments: HarnessBackend.all)
    func e32AnAnonymousBearerWithANewIdentityBecomesIdentifiedUnderTheSameId(_ backend: HarnessBackend) throws {
        let g = try E31SignInGateway(backend)
        let anonymous = try g.h.createAccount()
        let answer = try signIn(g, subject: "reader-a", bearer: anonymous.token)
        #expect(answer.status == 201, "\(answer.text)")
        #expect(answer.json["accountId"] as? String == anonymous.id)
        #expect(answer.json["created"] as? Bool == false && answer.json["mergedFrom"] as? [String] == [])
        #expect(try identity(g, "publisher", "reader-a")?.accountId == anonymous.id)
        let session = try answer.signedIn()
        #expect(try g.h.client.get("/v1/accounts/\(anonymous.id)/entitlements", as: session.token).status == 200)
        #expect(try accountIds(g) == [anonymous.id])
    }

    @Test(arguments: HarnessBackend.all)
    func e32ASecondDevicesAnonymousAccountIsMergedIntoTheIdentifiedOne(_ backend: HarnessBackend) throws {
        let g = try E31SignInGateway(backend)
        try g.h.seedCatalog()
        let holder = try signIn(g, subject: "reader-m", device: Self.device("phone")).signedIn()
        let second = try g.h.createAccount()
        try g.h.subscribe(second.id)
        let answer = try signIn(g, subject: "reader-m", device: Self.device("tablet"), bearer: second.token)
        #expect(answer.status == 201, "\(answer.text)")
        #expect(answer.json["accountId"] as? String == holder.accountId)
        #expect(answer.json["created"] as? Bool == false)
        #expect(answer.json["mergedFrom"] as? [String] == [second.id])
        let tablet = try answer.signedIn()
        let entitlements = try g.h.client.get("/v1/accounts/\(holder.accountId)/entitlements", as: tablet.token)
        #expect(entitlements.objects("subscriptions").map { $0["originalTransactionId"] as? String } == ["sub-1"],
                "the purchase is the identified account's")
        #expect(try g.h.client.get("/v1/accounts/\(second.id)/entitlements", as: second.token).status == 401)
        let toAdmin = try g.h.client.get("/v1/accounts/\(second.id)/entitlements", as: H.adminKey)
        #expect(toAdmin.status == 404 && toAdmin.errorCode == "account_merged")
        #expect((toAdmin.json["error"] as? [String: Any])?["mergedInto"] as? String == holder.accountId)
        let stranger = try g.h.createAccount()
        for reader in [holder.token, stranger.token] {
            let toReader = try g.h.client.get("/v1/accounts/\(second.id)/entitlements", as: reader)
            #expect(toReader.status == 404 && toReader.errorCode == "not_found", "\(toReader.text)")
            #expect((toReader.json["error"] as? [String: Any])?["mergedInto"] == nil, "a reader is not told where A went")
        }
    }

    @Test(arguments: HarnessBackend.all)
    func e32AnIdentifiedBearerWithAnotherNewIdentityMakesANewAccountAndLeavesItsOwnAlone(_ backend: HarnessBackend) throws {
        let g = try E31SignInGateway(backend)
        let a = try signIn(g, subject: "alice", device: Self.device("shared-ipad")).signedIn()
        let answer = try signIn(g, subject: "bob", device: Self.device("shared-ipad"), bearer: a.token)
        #expect(answer.status == 201, "\(answer.text)")
        #expect(answer.json["created"] as? Bool == true && answer.json["mergedFrom"] as? [String] == [])
        let b = try answer.signedIn()
        #expect(b.accountId != a.accountId)
        #expect(try g.h.client.get("/v1/accounts/\(a.accountId)/entitlements", as: a.token).status == 200, "A's session lives")
        #expect(try identity(g, "publisher", "alice")?.accountId == a.accountId)
        #expect(try identity(g, "publisher", "bob")?.accountId == b.accountId)
        #expect(try sessions(g, a.accountId).map { $0["sessionId"] as? String } == [a.sessionId])
    }

    // MARK: E34

    @Test(arguments: HarnessBackend.all)
    func e34AtTheDeviceLimitASignInIs409AndTheSameBodyWithReplaceSessionIdSucceeds(_ backend: HarnessBackend) throws {
        let g = try E31SignInGateway(backend) { $0.deviceLimit = 1 }
        let phone = try signIn(g, subject: "reader-l", device: Self.device("phone")).signedIn()
        let nonce = try g.nonce()
        let token = try g.provider.pyjwtToken(IdentityProviderFixture.claims(nonce: nonce, now: g.now, subject: "reader-l"), alg: "RS256")
        let refused = try signIn(g, Self.body(token: token, nonce: nonce, device: Self.device("tablet")))
        #expect(refused.status == 409 && refused.errorCode == "device_limit", "\(refused.text)")
        let listed = (refused.json["error"] as? [String: Any])?["sessions"] as? [[String: Any]] ?? []
        #expect(listed.map { $0["sessionId"] as? String } == [phone.sessionId])
        #expect(try g.isLive(nonce), "the 409 left its nonce unused")
        #expect(try sessions(g, phone.accountId).count == 1)

        let replaced = try signIn(g, Self.body(token: token, nonce: nonce, device: Self.device("tablet"), replace: phone.sessionId))
        #expect(replaced.status == 201, "\(replaced.text)")
        let tablet = try replaced.signedIn()
        #expect(tablet.accountId == phone.accountId)
        #expect(try g.h.client.get("/v1/accounts/\(phone.accountId)/entitlements", as: phone.token).status == 401)
        #expect(try sessions(g, phone.accountId).map { $0["sessionId"] as? String } == [tablet.sessionId])
    }

    // MARK: Sign in with Apple's server notifications

    func notification(_ g: E31SignInGateway, _ type: String, sub: String) -> String {
        let events = JSONValue.object(JSONObject([JSONMember("type", .string(type)), JSONMember("sub", .string(sub)),
                                                  JSONMember("event_time", .integer(g.now.secondsSinceEpoch))])).serialized
        let claims: [String: JSONValue] = [
            "iss": .string(E31SignInGateway.appleIssuer), "aud": .string(IdentityProviderFixture.clientId),
            "iat": .integer(g.now.secondsSinceEpoch), "jti": .string("jti-\(type)-\(sub)"), "events": .string(events),
        ]
        return g.provider.token(claims)
    }

    func post(_ g: E31SignInGateway, payload: String) throws -> APIResponse {
        try g.h.client.post("/v1/signinwithapple/notifications", json: #"{"payload":"\#(payload)"}"#)
    }

    @Test(arguments: HarnessBackend.all)
    func appleConsentRevokedRemovesTheIdentityAndEndsItsSessions(_ backend: HarnessBackend) throws {
        let g = try E31SignInGateway(backend, apple: true)
        let reader = try signIn(g, subject: "001.c", provider: "apple").signedIn()
        let code = try g.h.linkCode(for: reader.accountId, as: reader.token)
        let web = try g.h.linkSignIn(code: code, device: "web").signedIn()
        let answer = try post(g, payload: notification(g, "consent-revoked", sub: "001.c"))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(try identity(g, "apple", "001.c") == nil)
        #expect(try g.h.client.get("/v1/accounts/\(reader.accountId)/entitlements", as: reader.token).status == 401)
        #expect(try g.h.client.get("/v1/accounts/\(reader.accountId)/entitlements", as: web.token).status == 200,
                "the account stays, with the session not made with the identity")
        #expect(try post(g, payload: notification(g, "consent-revoked", sub: "001.c")).status == 200, "taken twice")
    }

    @Test(arguments: HarnessBackend.all)
    func appleAccountDeleteDeletesAnAccountLeftWithNothing(_ backend: HarnessBackend) throws {
        let g = try E31SignInGateway(backend, apple: true)
        let reader = try signIn(g, subject: "001.d", provider: "apple").signedIn()
        let answer = try post(g, payload: notification(g, "account-delete", sub: "001.d"))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(try identity(g, "apple", "001.d") == nil)
        let gone = try g.h.client.get("/v1/accounts/\(reader.accountId)/entitlements", as: H.adminKey)
        #expect(gone.status == 404 && gone.errorCode == "not_found", "\(gone.text)")
        #expect(try g.h.client.get("/v1/accounts/\(reader.accountId)/entitlements", as: reader.token).status == 401)
    }

    @Test(arguments: HarnessBackend.all)
    func appleANotificationWithABadSignatureIs401AndChangesNothing(_ backend: HarnessBackend) throws {
        let g = try E31SignInGateway(backend, apple: true)
        let reader = try signIn(g, subject: "001.s", provider: "apple").signedIn()
        let forged = IdentityProviderFixture.tampered(notification(g, "consent-revoked", sub: "001.s"))
        let answer = try post(g, payload: forged)
        #expect(answer.status == 401, "\(answer.text)")
        #expect(try identity(g, "apple", "001.s")?.accountId == reader.accountId)
        #expect(try g.h.client.get("/v1/accounts/\(reader.accountId)/entitlements", as: reader.token).status == 200)
    }
}
