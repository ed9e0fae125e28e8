import Foundation
import IssueGatewayClient
import Testing

/// Every call's request as http-api.md and readers.md spell it: method, path, bearer, body.
@Suite struct ClientRequestShapeTests {
    /// Checks the one request a call sent.
    private func expectRequest(_ transport: ScriptedTransport, _ method: String, _ path: String, bearer: String? = "secret-1",
                               body: [String: Any]? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let request = try #require(transport.requests.last, sourceLocation: sourceLocation)
        #expect(request.method == method, sourceLocation: sourceLocation)
        #expect(request.url.absoluteString == "https://gateway.test" + path, sourceLocation: sourceLocation)
        #expect(request.header("Authorization") == bearer.map { "Bearer \($0)" }, sourceLocation: sourceLocation)
        if let body {
            #expect(request.header("Content-Type") == "application/json", sourceLocation: sourceLocation)
            #expect(NSDictionary(dictionary: Fixture.json(request.body)) == NSDictionary(dictionary: body),
                    sourceLocation: sourceLocation)
        } else {
            #expect(request.body == nil, sourceLocation: sourceLocation)
        }
    }

    @Test func anonymousAccountIsPostedOnceWithItsAppAccountTokenAndKept() async throws {
        let transport = ScriptedTransport()
        transport.answer(201, #"{"accountId":"acc-9","accountToken":"tok-9"}"#)
        let (client, store) = Fixture.client(transport, signedIn: false)
        let token = UUID()
        async let first = client.continueAnonymously(appAccountToken: token)
        async let second = client.continueAnonymously(appAccountToken: token)
        let (a, b) = try await (first, second)
        #expect(a == b)
        #expect(transport.requests.count == 1)
        try expectRequest(transport, "POST", "/v1/accounts", bearer: nil, body: ["appAccountToken": token.uuidString.lowercased()])
        #expect(await store.load() == Session(accountId: "acc-9", token: "tok-9", appAccountToken: a.appAccountToken))
        #expect(try await client.continueAnonymously() == a)
        #expect(transport.requests.count == 1)
    }

    @Test func purchasesArePostedToTheAccountAndAnswerTypedEntitlements() async throws {
        let transport = ScriptedTransport()
        let (client, _) = Fixture.client(transport)
        transport.answer(200, Fixture.entitlements)
        let entitlements = try await client.postSignedTransactions(["jws-1", "jws-2"])
        try expectRequest(transport, "POST", "/v1/accounts/acc-1/receipts", body: ["signedTransactions": ["jws-1", "jws-2"]])
        #expect(entitlements.subscriptions.first?.state == .active)
        #expect(entitlements.subscriptions.first?.grants == ["monthly"])
        #expect(entitlements.subscriptions.first?.expiresAt == ISO8601DateFormatter().date(from: "2026-04-10T00:00:00Z"))

        transport.answer(200, Fixture.entitlements)
        _ = try await client.postReceipt("cmVjZWlwdA==")
        try expectRequest(transport, "POST", "/v1/accounts/acc-1/receipts", body: ["receiptData": "cmVjZWlwdA=="])

        transport.answer(200, Fixture.entitlements)
        _ = try await client.postGooglePlayPurchase(packageName: "com.example.monthly", productId: "monthly.play", purchaseToken: "tok-abc")
        try expectRequest(transport, "POST", "/v1/accounts/acc-1/googleplay/purchases",
                          body: ["packageName": "com.example.monthly", "productId": "monthly.play", "purchaseToken": "tok-abc"])

        transport.answer(200, Fixture.entitlements)
        _ = try await client.redeemCode("ABCD-1234")
        try expectRequest(transport, "POST", "/v1/accounts/acc-1/codes/redeem", body: ["code": "ABCD-1234"])

        transport.answer(200, Fixture.entitlements)
        _ = try await client.entitlements()
        try expectRequest(transport, "GET", "/v1/accounts/acc-1/entitlements")

        transport.answer(200, Fixture.entitlements)
        _ = try await client.refreshEntitlements()
        try expectRequest(transport, "POST", "/v1/accounts/acc-1/refresh")
    }

    @Test func downloadAccessAndPushesNameTheAccountAndTheIssue() async throws {
        let transport = ScriptedTransport()
        let (client, _) = Fixture.client(transport)
        transport.answer(200, #"{"token":"t.j.s","expiresAt":"2026-03-20T12:05:00.000Z","format":"cloudfront","urls":["https://cdn.test/content/monthly/2026-03/issue.pdf"],"cookies":[{"name":"CloudFront-Policy","value":"p","domain":"cdn.test","path":"/content/monthly/2026-03/","secure":true,"httpOnly":true}]}"#)
        let access = try await client.downloadAccess(publication: "monthly", issue: "2026-03")
        try expectRequest(transport, "POST", "/v1/accounts/acc-1/publications/monthly/issues/2026-03/token")
        #expect(access.format == "cloudfront")
        #expect(access.request(for: access.urls[0]).header("Cookie") == "CloudFront-Policy=p")

        transport.answer(201, "{}")
        try await client.registerForPushes(apnsToken: Data([0xab, 0x01, 0xff]), environment: .sandbox)
        try expectRequest(transport, "POST", "/v1/accounts/acc-1/devices",
                          body: ["platform": "ios", "apnsToken": "ab01ff", "environment": "sandbox"])
        transport.answer(200, "{}")
        try await client.unregisterForPushes(apnsToken: Data([0xab, 0x01, 0xff]))
        try expectRequest(transport, "DELETE", "/v1/accounts/acc-1/devices/ab01ff")
    }

    @Test func E31signInAsksTheNonceFirstAndSendsTheDevicesSessionAsBearer() async throws {
        let transport = ScriptedTransport()
        let (client, store) = Fixture.client(transport)
        transport.answer(201, #"{"nonce":"n-123","expiresAt":"2026-03-20T12:10:00.000Z"}"#)
        transport.answer(201, #"{"accountId":"acc-2","sessionId":"ses-2","sessionToken":"secret-2","created":false,"mergedFrom":["acc-1"]}"#)
        let result = try await client.signIn(with: .apple, device: Fixture.device) { nonce in
            #expect(nonce.nonce == "n-123")
            return "id-token-for-\(nonce.nonce)"
        }
        #expect(transport.requests.count == 2)
        #expect(transport.requests[0].method == "POST")
        #expect(transport.requests[0].url.path == "/v1/sessions/nonces")
        try expectRequest(transport, "POST", "/v1/sessions", body: [
            "provider": "apple", "idToken": "id-token-for-n-123", "nonce": "n-123",
            "device": ["id": Fixture.device.id, "name": "Anna's iPad", "platform": "ios"]])
        #expect(result.mergedFrom == ["acc-1"])
        // E32 row 5: the merged account's appAccountToken now names acc-2 and stays with the session.
        #expect(await store.load() == Session(accountId: "acc-2", token: "secret-2", sessionId: "ses-2",
                                              appAccountToken: Fixture.session.appAccountToken))
    }

    @Test func E31aCancelledProviderSheetSendsNoSignIn() async throws {
        struct Cancelled: Error {}
        let transport = ScriptedTransport()
        let (client, store) = Fixture.client(transport)
        transport.answer(201, #"{"nonce":"n-456","expiresAt":"2026-03-20T12:10:00.000Z"}"#)
        let error = await #expect(throws: IssueGatewayError.self) {
            try await client.signIn(with: .google, device: Fixture.device) { _ in throw Cancelled() }
        }
        #expect(error?.code == .idTokenUnavailable)
        #expect(transport.requests.map(\.url.path) == ["/v1/sessions/nonces"])
        #expect(await store.load() == Fixture.session)
    }

    @Test func E34atTheDeviceLimitTheSameBodyIsSentAgainNamingTheChosenSession() async throws {
        let transport = ScriptedTransport()
        let (client, _) = Fixture.client(transport, signedIn: false)
        transport.answer(409, #"{"error":{"code":"device_limit","message":"at the limit","sessions":[{"sessionId":"old-1","device":{"id":"d1","name":"Old phone","platform":"ios"},"createdAt":"2026-01-01T00:00:00.000Z","lastUsedAt":"2026-02-01T00:00:00.000Z","current":false}]}}"#)
        transport.answer(201, #"{"accountId":"acc-3","sessionId":"ses-3","sessionToken":"secret-3","created":false,"mergedFrom":[]}"#)
        let result = try await client.redeemLinkCode("k7mx-2qpa", device: Fixture.device) { sessions in
            sessions.first { $0.device.name == "Old phone" }?.sessionId
        }
        #expect(result.session.accountId == "acc-3")
        #expect(result.session.appAccountToken == nil)
        #expect(transport.requests.count == 2)
        try expectRequest(transport, "POST", "/v1/sessions", bearer: nil, body: [
            "linkCode": "k7mx-2qpa", "replaceSessionId": "old-1",
            "device": ["id": Fixture.device.id, "name": "Anna's iPad", "platform": "ios"]])
        #expect(Fixture.json(transport.requests[0].body)["replaceSessionId"] == nil)
    }

    @Test func E33E34E35linkCodesSessionsDeletionAndExportNameTheAccount() async throws {
        let transport = ScriptedTransport()
        let (client, store) = Fixture.client(transport)
        transport.answer(201, #"{"code":"K7MX2QPA","expiresAt":"2026-03-20T12:15:00.000Z"}"#)
        #expect(try await client.createLinkCode().code == "K7MX2QPA")
        try expectRequest(transport, "POST", "/v1/accounts/acc-1/link-codes")

        transport.answer(200, #"{"sessions":[{"sessionId":"ses-1","device":{"id":null,"name":null,"platform":null},"createdAt":"2026-01-01T00:00:00.000Z","lastUsedAt":"2026-01-01T00:00:00.000Z","current":true},{"sessionId":"ses-7","device":null,"createdAt":"2026-01-02T00:00:00.000Z","lastUsedAt":null,"current":false}]}"#)
        let sessions = try await client.sessions()
        try expectRequest(transport, "GET", "/v1/accounts/acc-1/sessions")
        #expect(sessions.map(\.current) == [true, false])
        #expect(sessions.first?.device.name == nil)

        transport.answer(200, #"{"sessionId":"ses-7"}"#)
        try await client.endSession("ses-7")
        try expectRequest(transport, "DELETE", "/v1/accounts/acc-1/sessions/ses-7")
        #expect(await store.load() != nil, "another device's session ended; this one stays")

        transport.answer(200, #"{"account":{"accountId":"acc-1"},"identities":[]}"#)
        let export = try await client.exportAccount()
        try expectRequest(transport, "GET", "/v1/accounts/acc-1/export")
        #expect(Fixture.json(export)["identities"] != nil)

        transport.answer(200, #"{"deleted":true,"stillBilling":[{"store":"appStore","productId":"monthly.1m","expiresAt":"2026-04-10T00:00:00.000Z","manageUrl":"https://apps.apple.com/account/subscriptions"},{"store":"stripe","productId":"bundle.web","expiresAt":"2026-05-01T00:00:00.000Z","manageUrl":null}]}"#)
        let deletion = try await client.deleteAccount()
        try expectRequest(transport, "DELETE", "/v1/accounts/acc-1")
        #expect(deletion.stillBilling.map(\.manageURL) == [URL(string: "https://apps.apple.com/account/subscriptions"), nil])
        #expect(await store.load() == nil)
        await #expect(throws: IssueGatewayError.self) { try await client.entitlements() }
    }

    @Test func E34signOutEndsTheCurrentSessionAndForgetsIt() async throws {
        let transport = ScriptedTransport()
        let (client, store) = Fixture.client(transport)
        transport.answer(200, #"{"sessionId":"ses-1"}"#)
        try await client.signOut()
        try expectRequest(transport, "DELETE", "/v1/sessions/current")
        #expect(await store.load() == nil)
        try await client.signOut()
        #expect(transport.requests.count == 1, "no session, nothing to end")
    }

    @Test func aSessionTheGatewayAnswers401ForIsForgotten() async throws {
        let transport = ScriptedTransport()
        let (client, store) = Fixture.client(transport)
        transport.answer(401, #"{"error":{"code":"unauthorized","message":"unknown token"}}"#)
        let error = await #expect(throws: IssueGatewayError.self) { try await client.entitlements() }
        #expect(error?.code == .unauthorized)
        #expect(await store.load() == nil)
        let none = await #expect(throws: IssueGatewayError.self) { try await client.entitlements() }
        #expect(none?.code == .noSession)
        #expect(transport.requests.count == 1)
    }
}
