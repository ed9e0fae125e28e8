import Foundation
import GatewayCore
import GatewayTesting
import Testing
import Wire

/// readers.md, Sign in with Apple's server notifications: the payload is verified as an ID token
/// of the provider `apple` (keys, issuer, client ids; no nonce; `iat` within a day; `exp`, when
/// present, after now) and its `events` claim, a JSON string or an object, names the event.
@Suite struct E31AppleServerEventTests {
    func payload(_ g: E31SignInGateway, events: JSONValue, change: (inout [String: JSONValue]) -> Void = { _ in }) -> String {
        var claims: [String: JSONValue] = [
            "iss": .string(E31SignInGateway.appleIssuer), "aud": .string(IdentityProviderFixture.clientId),
            "iat": .integer(g.now.secondsSinceEpoch), "jti": .string("jti-1"), "events": events,
        ]
        change(&claims)
        return g.provider.token(claims)
    }

    static func events(_ type: String, sub: String = "001234.abcd", email: String? = nil) -> String {
        var members = [JSONMember("type", .string(type)), JSONMember("sub", .string(sub)), JSONMember("event_time", .integer(1))]
        if let email { members.append(JSONMember("email", .string(email))) }
        return JSONValue.object(JSONObject(members)).serialized
    }

    @Test func e31AppleNotificationsNameTheirEventAsAStringOrAnObject() throws {
        let g = try E31SignInGateway(apple: true)
        let events = g.h.runtime.core.readers.appleServerEvents
        let cases: [(JSONValue, AppleServerEvent)] = [
            (.string(Self.events("consent-revoked")), .consentRevoked(subject: "001234.abcd")),
            (.string(Self.events("account-delete")), .accountDeleted(subject: "001234.abcd")),
            (.string(Self.events("account-deleted")), .accountDeleted(subject: "001234.abcd")),
            (.string(Self.events("email-disabled")), .emailDisabled(subject: "001234.abcd")),
            (.string(Self.events("email-enabled", email: "x@privaterelay.appleid.com")),
             .emailEnabled(subject: "001234.abcd", email: "x@privaterelay.appleid.com")),
            (try JSONParser().parse(Self.events("consent-revoked")), .consentRevoked(subject: "001234.abcd")),
            (.string(Self.events("something-new")), .other(type: "something-new", subject: "001234.abcd")),
        ]
        for (claim, expected) in cases {
            #expect(try events.appleServerEvent(payload: payload(g, events: claim), now: g.now) == expected)
        }
    }

    @Test func e31AnAppleNotificationThatFailsIsRefused() throws {
        let g = try E31SignInGateway(apple: true)
        let events = g.h.runtime.core.readers.appleServerEvents
        let good = JSONValue.string(Self.events("consent-revoked"))
        let now = g.now.secondsSinceEpoch
        let refused: [(String, String)] = [
            (payload(g, events: good) { $0["iat"] = .integer(now - 86_400 - 61) }, "issued_at"),
            (payload(g, events: good) { $0["exp"] = .integer(now - 61) }, "expired"),
            (payload(g, events: good) { $0["aud"] = .string("com.example.other") }, "audience"),
            (payload(g, events: good) { $0["iss"] = .string(IdentityProviderFixture.issuer) }, "issuer"),
            (IdentityProviderFixture.tampered(payload(g, events: good)), "signature"),
            (payload(g, events: .string("not json")), "malformed"),
            (payload(g, events: .null), "malformed"),
        ]
        for (token, reason) in refused {
            #expect(throws: GatewayError.invalidIDToken(reason: reason)) { try events.appleServerEvent(payload: token, now: g.now) }
        }
        // A day old, within the skew, is taken; `exp` ahead is taken.
        #expect(try events.appleServerEvent(payload: payload(g, events: good) { $0["iat"] = .integer(now - 86_400) }, now: g.now)
                == .consentRevoked(subject: "001234.abcd"))
        #expect(try events.appleServerEvent(payload: payload(g, events: good) { $0["exp"] = .integer(now + 60) }, now: g.now)
                == .consentRevoked(subject: "001234.abcd"))
    }

    @Test func e31WithoutAnAppleProviderNotificationsAreNotConfigured() throws {
        let g = try E31SignInGateway()
        #expect(throws: GatewayError.notConfigured("Sign in with Apple is not configured (ISSUE_GATEWAY_IDENTITY_PROVIDERS)")) {
            try g.h.runtime.core.readers.appleServerEvents.appleServerEvent(payload: "x.y.z", now: g.now)
        }
    }
}
