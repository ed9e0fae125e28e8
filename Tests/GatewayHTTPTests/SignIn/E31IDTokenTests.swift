import Foundation
import GatewayCore
import GatewayCrypto
import GatewayTesting
import OpenIDConnect
import Testing
import Wire

/// readers.md E31: an ID token is verified as OpenID Connect Core §3.1.3.7 says against the
/// provider's keys, issuer and client ids, with a nonce the gateway issued, used once; every way
/// a token can be forged or stale is refused for its reason, using the nonce up and nothing else.
@Suite struct E31IDTokenTests {
    @Test(arguments: HarnessBackend.all)
    func e31NoncesHoldAtLeast128BitsAndLiveTenMinutes(_ backend: HarnessBackend) throws {
        let g = try E31SignInGateway(backend)
        let answer = try g.h.client.post("/v1/sessions/nonces")
        #expect(answer.status == 201)
        let nonce = try #require(answer.json["nonce"] as? String)
        #expect(try #require(Base64URL.decode(nonce)).count * 8 >= 128)
        #expect(answer.json["expiresAt"] as? String == g.now.adding(seconds: 600).rfc3339)
        #expect(try g.nonce() != nonce)
        #expect(try g.isLive(nonce))
        g.h.clock.advance(seconds: 600)
        #expect(!(try g.isLive(nonce)), "expired after 10 minutes")
    }

    @Test func e31WithoutProvidersNoncesAreNotConfigured() throws {
        let h = try GatewayHarness()
        let answer = try h.client.post("/v1/sessions/nonces")
        #expect(answer.status == 409 && answer.errorCode == "not_configured")
        #expect(!h.runtime.core.readers.identityVerifier.isConfigured)
    }

    @Test(arguments: HarnessBackend.all)
    func e31TokensOfTheProviderVerifyWithTheNonceItIssued(_ backend: HarnessBackend) throws {
        let g = try E31SignInGateway(backend)
        let p = g.provider
        let mints: [(String, (String) throws -> String)] = [
            ("RS256, own signer", { p.token(g.claims($0)) }),
            ("ES256, own signer", { p.token(g.claims($0), alg: "ES256") }),
            ("RS256, PyJWT", { try p.pyjwtToken(g.claims($0), alg: "RS256") }),
            ("ES256, PyJWT", { try p.pyjwtToken(g.claims($0), alg: "ES256") }),
            ("hashed nonce (Sign in with Apple)", { p.token(g.claims(IdentityProviderFixture.hashedNonce($0))) }),
            ("audience array, azp", {
                var claims = g.claims($0)
                claims["aud"] = .array([.string(IdentityProviderFixture.clientId), .string(IdentityProviderFixture.otherClientId)])
                claims["azp"] = .string(IdentityProviderFixture.clientId)
                return p.token(claims)
            }),
        ]
        for (name, mint) in mints {
            let nonce = try g.nonce()
            let identity = try g.verify(try mint(nonce), nonce: nonce)
            #expect(identity == VerifiedIdentity(provider: "publisher", subject: "reader-1", email: "reader@example.com",
                                                 emailVerified: true), "\(name)")
            #expect(try g.isLive(nonce), "a token that passes leaves its nonce to the sign-in's unit of work: \(name)")
            #expect(try g.useNonce(nonce), "\(name)")
            #expect(!(try g.useNonce(nonce)), "used once: \(name)")
        }
        #expect(g.provider.fetches == 1, "one fetch of the key set served every token")
    }

    @Test(arguments: HarnessBackend.all)
    func e31EveryForgedOrStaleTokenIsRefusedForItsReasonAndUsesItsNonceUp(_ backend: HarnessBackend) throws {
        let g = try E31SignInGateway(backend)
        let p = g.provider, now = g.now.secondsSinceEpoch
        let stranger = try #require(RSAPrivateKey(generatingBits: 2048))
        /// A good token for `nonce` with one claim changed (nil: left out).
        func changed(_ nonce: String, _ name: String, _ value: JSONValue?) -> String {
            var claims = g.claims(nonce)
            claims[name] = value
            return p.token(claims)
        }
        func signed(by key: RSAPrivateKey, header: String, _ claims: [String: JSONValue]) -> String {
            let payload = JSONValue.object(JSONObject(claims.sorted { $0.key < $1.key }.map { JSONMember($0.key, $0.value) }))
            return CompactJWS.serialize(header: Array(header.utf8), payload: payload.serializedBytes) { key.signRS256($0) } ?? ""
        }
        struct Attack {
            let name: String, reason: String
            let mint: (String) throws -> String
        }
        let other: JSONValue = .string("com.example.other")
        let clientId: JSONValue = .string(IdentityProviderFixture.clientId)
        let rsaKid = IdentityProviderFixture.rsaKid
        let attacks: [Attack] = [
            Attack(name: "alg none", reason: "algorithm") { try p.pyjwtToken(g.claims($0), alg: "none") },
            Attack(name: "HS256 keyed with the RSA public key", reason: "algorithm") { try p.hs256WithPublicKey(g.claims($0)) },
            Attack(name: "a key not in the JWKS, under a kid of the set", reason: "signature") {
                signed(by: stranger, header: #"{"alg":"RS256","kid":"\#(rsaKid)"}"#, g.claims($0))
            },
            Attack(name: "a key not in the JWKS, under its own kid", reason: "unknown_key") {
                signed(by: stranger, header: #"{"alg":"RS256","kid":"stranger"}"#, g.claims($0))
            },
            Attack(name: "no kid", reason: "unknown_key") { signed(by: p.rsaKey, header: #"{"alg":"RS256"}"#, g.claims($0)) },
            Attack(name: "a changed byte", reason: "signature") { IdentityProviderFixture.tampered(p.token(g.claims($0))) },
            Attack(name: "not a JWS", reason: "malformed") { _ in "not-a-token" },
            Attack(name: "wrong issuer", reason: "issuer") { changed($0, "iss", .string("https://evil.example")) },
            Attack(name: "foreign audience", reason: "audience") { changed($0, "aud", other) },
            Attack(name: "extra audience", reason: "audience") { changed($0, "aud", .array([clientId, other])) },
            Attack(name: "foreign azp", reason: "audience") { changed($0, "azp", other) },
            Attack(name: "expired", reason: "expired") { changed($0, "exp", .integer(now - 61)) },
            Attack(name: "too old", reason: "issued_at") { changed($0, "iat", .integer(now - 600 - 61)) },
            Attack(name: "not yet valid", reason: "issued_at") { changed($0, "nbf", .integer(now + 61)) },
            Attack(name: "issued in the future", reason: "issued_at") { changed($0, "iat", .integer(now + 61)) },
            Attack(name: "no sub", reason: "malformed") { changed($0, "sub", nil) },
            Attack(name: "sub over 255 characters", reason: "malformed") {
                changed($0, "sub", .string(String(repeating: "s", count: 256)))
            },
            Attack(name: "another nonce in the token", reason: "nonce") { changed($0, "nonce", .string("something-else")) },
            Attack(name: "no nonce in the token", reason: "nonce") { changed($0, "nonce", nil) },
        ]
        let bystander = try g.nonce()
        for (index, attack) in attacks.enumerated() {
            let nonce = try g.nonce()
            let token = try attack.mint(nonce)
            #expect(throws: GatewayError.invalidIDToken(reason: attack.reason), "\(attack.name)") {
                try g.verify(token, nonce: nonce, address: "192.0.2.\(index)")
            }
            #expect(!(try g.isLive(nonce)), "the refused request used its nonce up: \(attack.name)")
        }
        #expect(try g.isLive(bystander), "no other nonce changed")

        // Within the skew, the same instants pass.
        for (name, value) in [("exp", now - 59), ("iat", now - 600 - 59), ("nbf", now + 59)] {
            let nonce = try g.nonce()
            _ = try g.verify(changed(nonce, name, .integer(value)), nonce: nonce)
        }
    }

    @Test(arguments: HarnessBackend.all)
    func e31ANonceNeverIssuedOrUsedAlreadyIsRefused(_ backend: HarnessBackend) throws {
        let g = try E31SignInGateway(backend)
        let invented = Base64URL.encode([UInt8](repeating: 7, count: 32))
        #expect(throws: GatewayError.invalidIDToken(reason: "nonce")) {
            try g.verify(g.provider.token(g.claims(invented)), nonce: invented)
        }
        let nonce = try g.nonce()
        let token = g.provider.token(g.claims(nonce))
        _ = try g.verify(token, nonce: nonce)
        #expect(try g.useNonce(nonce), "the first sign-in used it")
        #expect(throws: GatewayError.invalidIDToken(reason: "nonce"), "the same nonce a second time") {
            try g.verify(token, nonce: nonce)
        }
        let expiring = try g.nonce()
        g.h.clock.advance(seconds: 600)
        #expect(throws: GatewayError.invalidIDToken(reason: "nonce"), "expired") {
            try g.verify(g.provider.token(g.claims(expiring)), nonce: expiring)
        }
        let other = try g.nonce()
        #expect(throws: GatewayError.invalidIDToken(reason: "provider"), "an unknown provider id") {
            try g.verify(g.provider.token(g.claims(other)), nonce: other, provider: "elsewhere")
        }
        #expect(!(try g.isLive(other)))
    }

    @Test func e31AnUnknownKidFetchesTheSetAgainAtMostOncePer30Seconds() throws {
        let g = try E31SignInGateway()
        let p = g.provider
        p.publish([IdentityProviderFixture.rsaKid])
        var nonce = try g.nonce()
        _ = try g.verify(p.token(g.claims(nonce)), nonce: nonce)
        #expect(p.fetches == 1)

        p.publish([IdentityProviderFixture.rsaKid, IdentityProviderFixture.ecKid])
        for _ in 0..<3 {
            nonce = try g.nonce()
            #expect(throws: GatewayError.invalidIDToken(reason: "unknown_key"), "the last fetch is under 30 s old") {
                try g.verify(p.token(g.claims(nonce), alg: "ES256"), nonce: nonce)
            }
        }
        g.h.clock.advance(seconds: 29)
        nonce = try g.nonce()
        #expect(throws: GatewayError.invalidIDToken(reason: "unknown_key")) {
            try g.verify(p.token(g.claims(nonce), alg: "ES256"), nonce: nonce)
        }
        #expect(p.fetches == 1)

        g.h.clock.advance(seconds: 1)
        nonce = try g.nonce()
        _ = try g.verify(p.token(g.claims(nonce), alg: "ES256"), nonce: nonce)
        #expect(p.fetches == 2, "30 s after the last fetch, the rotated key is fetched")

        for _ in 0..<5 {
            nonce = try g.nonce()
            #expect(throws: GatewayError.invalidIDToken(reason: "unknown_key")) {
                try g.verify(p.token(g.claims(nonce), kid: "ghost"), nonce: nonce)
            }
        }
        #expect(p.fetches == 2, "a forged kid does not make the gateway hammer the key URL")
    }

    @Test func e31TheKeySetIsKeptAsItsCacheControlAllows() throws {
        let g = try E31SignInGateway()
        let p = g.provider
        p.setCacheControl("public, max-age=120, must-revalidate")
        func signIn() throws {
            let nonce = try g.nonce()
            _ = try g.verify(p.token(g.claims(nonce)), nonce: nonce)
        }
        try signIn()
        g.h.clock.advance(seconds: 119)
        try signIn()
        #expect(p.fetches == 1, "kept for max-age")
        g.h.clock.advance(seconds: 1)
        try signIn()
        #expect(p.fetches == 2, "fetched again once max-age ran out")

        p.setCacheControl("no-store")
        g.h.clock.advance(seconds: 120)
        try signIn()
        #expect(p.fetches == 3)
        g.h.clock.advance(seconds: 29)
        try signIn()
        #expect(p.fetches == 3, "even under no-store the set is kept 30 s")
        g.h.clock.advance(seconds: 1)
        try signIn()
        #expect(p.fetches == 4)
    }

    @Test func e31AKeySetThatCannotBeFetchedIsProviderUnavailableAndLeavesTheNonce() throws {
        let g = try E31SignInGateway()
        let p = g.provider
        p.setStatus(503)
        let nonce = try g.nonce()
        #expect(throws: GatewayError.providerUnavailable(retryAfterSeconds: 30)) {
            try g.verify(p.token(g.claims(nonce)), nonce: nonce)
        }
        #expect(try g.isLive(nonce), "503: the nonce stays unused")
        #expect(throws: Never.self, "not counted as a failure") { try g.verifier.admit(clientAddress: "192.0.2.1", now: g.now) }

        // A kept key still serves while a later fetch fails.
        p.setStatus(200)
        p.setCacheControl("max-age=60")
        g.h.clock.advance(seconds: 30)
        _ = try g.verify(p.token(g.claims(nonce)), nonce: nonce)
        p.setStatus(500)
        g.h.clock.advance(seconds: 61)
        let later = try g.nonce()
        _ = try g.verify(p.token(g.claims(later)), nonce: later)
    }

    @Test func e31TenFailuresFromOneAddressIn15MinutesAreRateLimited() throws {
        let g = try E31SignInGateway()
        let verifier = g.verifier
        for _ in 0..<10 {
            try verifier.admit(clientAddress: "198.51.100.7", now: g.now)
            let nonce = try g.nonce()
            #expect(throws: GatewayError.invalidIDToken(reason: "issuer")) {
                try g.verify(g.provider.token(g.claims(nonce).merging(["iss": .string("https://evil.example")]) { $1 }),
                             nonce: nonce, address: "198.51.100.7")
            }
        }
        #expect(throws: GatewayError.rateLimited(retryAfterSeconds: 900,
                                                 message: "too many failed sign-ins from this address; try again later")) {
            try verifier.admit(clientAddress: "198.51.100.7", now: g.now)
        }
        try verifier.admit(clientAddress: "198.51.100.8", now: g.now)

        // Link codes count apart: nine of each kind do not add up to ten.
        for _ in 0..<9 {
            verifier.recordLinkCodeFailure(clientAddress: "198.51.100.9", now: g.now)
            let nonce = try g.nonce()
            _ = try? g.verify("not-a-token", nonce: nonce, address: "198.51.100.9")
        }
        try verifier.admit(clientAddress: "198.51.100.9", now: g.now)
        verifier.recordLinkCodeFailure(clientAddress: "198.51.100.9", now: g.now)
        #expect(throws: GatewayError.self) { try verifier.admit(clientAddress: "198.51.100.9", now: g.now) }

        g.h.clock.advance(seconds: 900)
        try verifier.admit(clientAddress: "198.51.100.7", now: g.now)
    }
}
