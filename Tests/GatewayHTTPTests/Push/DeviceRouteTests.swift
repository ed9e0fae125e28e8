@testable import GatewayConfiguration
import Testing
import GatewayTesting

/// Reader devices for APNs through the API (http-api.md, devices).
@Suite struct DeviceRouteTests {
    static func token(_ n: Int, digits: Int = 64) -> String {
        let hex = String(n, radix: 16)
        return String(repeating: "0", count: digits - hex.count) + hex
    }

    static func body(_ token: String, environment: String = "production") -> String {
        #"{"platform":"ios","apnsToken":"\#(token)","environment":"\#(environment)"}"#
    }

    @Test func registeringIs201ThenA200AndDeleteRemovesIt() throws {
        let h = try H()
        let reader = try h.createAccount()
        let token = "AB" + String(repeating: "cd", count: 31)
        let first = try h.client.post("/v1/accounts/\(reader.id)/devices", as: reader.token, json: Self.body(token))
        #expect(first.status == 201)
        #expect(first.json["apnsToken"] as? String == token.lowercased(), "kept in lowercase hex, as APNs takes it")
        #expect(first.json["environment"] as? String == "production")
        let again = try h.client.post("/v1/accounts/\(reader.id)/devices", as: reader.token,
                                      json: Self.body(token.lowercased(), environment: "sandbox"))
        #expect(again.status == 200 && again.json["environment"] as? String == "sandbox")
        #expect(try h.runtime.core.store.devices(ofAccount: reader.id).map(\.environment) == [.sandbox])
        let removed = try h.client.delete("/v1/accounts/\(reader.id)/devices/\(token)", as: reader.token)
        #expect(removed.status == 200)
        #expect(try h.runtime.core.store.devices(ofAccount: reader.id).isEmpty)
        let unknown = try h.client.delete("/v1/accounts/\(reader.id)/devices/\(token)", as: reader.token)
        #expect(unknown.status == 404 && unknown.errorCode == "not_found")
    }

    @Test func twentyDevicesAtMostThenA409AndKnownOnesStillA200() throws {
        let h = try H()
        let reader = try h.createAccount()
        for n in 0..<20 {
            #expect(try h.client.post("/v1/accounts/\(reader.id)/devices", as: reader.token, json: Self.body(Self.token(n))).status == 201)
        }
        let past = try h.client.post("/v1/accounts/\(reader.id)/devices", as: reader.token, json: Self.body(Self.token(20)))
        #expect(past.status == 409 && past.errorCode == "conflict" && past.hasErrorShape)
        #expect(try h.client.post("/v1/accounts/\(reader.id)/devices", as: reader.token, json: Self.body(Self.token(3))).status == 200)
        #expect(try h.runtime.core.store.devices(ofAccount: reader.id).count == 20)
    }

    @Test func badTokensPlatformsAndEnvironmentsAre400AndStoreNothing() throws {
        let h = try H()
        let reader = try h.createAccount()
        let bad = [
            Self.body(String(repeating: "a", count: 63)),          // odd
            Self.body(String(repeating: "ab", count: 31)),         // 62 digits: too short
            Self.body(String(repeating: "ab", count: 101)),        // 202 digits: too long
            Self.body("zz" + String(repeating: "ab", count: 31)),  // not hex
            Self.body(Self.token(1), environment: "staging"),
            #"{"platform":"android","apnsToken":"\#(Self.token(1))"}"#,
            #"{"platform":"ios"}"#,
            #"{"apnsToken":12}"#,
        ]
        for body in bad {
            let answer = try h.client.post("/v1/accounts/\(reader.id)/devices", as: reader.token, json: body)
            #expect(answer.status == 400 && answer.hasErrorShape, "\(body)")
        }
        #expect(try h.runtime.core.store.devices(ofAccount: reader.id).isEmpty)
        let longest = try h.client.post("/v1/accounts/\(reader.id)/devices", as: reader.token,
                                        json: Self.body(Self.token(7, digits: 200)))
        #expect(longest.status == 201)
    }

    @Test func theAccountServiceAndAdminMayAnotherAccountMayNot() throws {
        let h = try H()
        let reader = try h.createAccount(), other = try h.createAccount()
        let service = try h.createKey(#"{"role":"service"}"#)
        #expect(try h.client.post("/v1/accounts/\(reader.id)/devices", as: service.secret, json: Self.body(Self.token(1))).status == 201)
        #expect(try h.client.post("/v1/accounts/\(reader.id)/devices", as: H.adminKey, json: Self.body(Self.token(2))).status == 201)
        let foreign = try h.client.post("/v1/accounts/\(reader.id)/devices", as: other.token, json: Self.body(Self.token(3)))
        #expect(foreign.status == 403)
        #expect(try h.client.delete("/v1/accounts/\(reader.id)/devices/\(Self.token(1))", as: other.token).status == 403)
        #expect(try h.client.post("/v1/accounts/\(reader.id)/devices", json: Self.body(Self.token(3))).status == 401)
        #expect(try h.client.post("/v1/accounts/acct-nobody/devices", as: H.adminKey, json: Self.body(Self.token(3))).status == 404)
        // A token registered by another account moves to it: the install now belongs to that reader.
        #expect(try h.client.post("/v1/accounts/\(other.id)/devices", as: other.token, json: Self.body(Self.token(1))).status == 201)
        #expect(try h.runtime.core.store.devices(ofAccount: reader.id).map(\.apnsToken) == [Self.token(2)])
    }

    @Test func aTokenAPNsCalledUnregisteredIsKeptWhenTheDeviceRegisteredItAgainLater() throws {
        let h = try H()
        let reader = try h.createAccount()
        let token = Self.token(9)
        #expect(try h.client.post("/v1/accounts/\(reader.id)/devices", as: reader.token, json: Self.body(token)).status == 201)
        let store = h.runtime.core.store
        let registered = H.start
        try store.forgetDeviceToken(token, unregisteredAt: registered.adding(seconds: -60))
        #expect(try store.devices(ofAccount: reader.id).count == 1, "registered again after APNs's timestamp: kept")
        // The app sends its token again at a later launch (a 200): a 410 dated between the two
        // registrations no longer removes it.
        h.clock.advance(seconds: 3600)
        #expect(try h.client.post("/v1/accounts/\(reader.id)/devices", as: reader.token, json: Self.body(token)).status == 200)
        try store.forgetDeviceToken(token, unregisteredAt: registered.adding(seconds: 60))
        #expect(try store.devices(ofAccount: reader.id).count == 1, "registered again after the 410: kept")
        try store.forgetDeviceToken(token, unregisteredAt: registered.adding(seconds: 3660))
        #expect(try store.devices(ofAccount: reader.id).isEmpty)
    }
}
