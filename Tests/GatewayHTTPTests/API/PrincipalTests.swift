import Foundation
@testable import GatewayConfiguration
import TestSupport
import Testing
import GatewayTesting

/// Who may call what (http-api.md, Auth): 401 for a missing or unknown secret, 403 for a known
/// secret that is not allowed here; keys shown once, and a deleted key refused at once.
@Suite struct PrincipalTests {
    @Test func missingOrUnknownSecretsAre401OnEveryProtectedRoute() throws {
        let h = try H()
        try h.seedCatalog()
        let account = try h.createAccount()
        let issue = H.issueBody(id: "n1", publishedAt: "2026-01-05T00:00:00Z", paths: ["/content/monthly/n1/a.pdf"])
        let calls: [(String, String, String?)] = [
            ("PUT", "/v1/publications/monthly", #"{"title":"x"}"#),
            ("PUT", "/v1/products/p", #"{"kind":"free","grants":["monthly"]}"#),
            ("POST", "/v1/publications/monthly/issues", issue),
            ("PUT", "/v1/publications/monthly/issues/2026-01", issue),
            ("DELETE", "/v1/publications/monthly/issues/2026-01", nil),
            ("GET", "/v1/publications/monthly/issues?include=all", nil),
            ("POST", "/v1/keys", #"{"role":"service"}"#),
            ("DELETE", "/v1/keys/key-1", nil),
            ("GET", "/v1/accounts/\(account.id)/entitlements", nil),
            ("GET", "/v1/accounts/\(account.id)/issues", nil),
            ("POST", "/v1/accounts/\(account.id)/receipts", #"{"receiptData":"AAAA"}"#),
            ("POST", "/v1/accounts/\(account.id)/publications/monthly/issues/2026-02/token", nil),
        ]
        for (method, path, body) in calls {
            for secret in [nil, "not-a-known-secret", H.adminKey + "x"] {
                let response = try h.client.send(method, path, as: secret, body: body.map { Array($0.utf8) })
                #expect(response.status == 401, "\(method) \(path) with \(secret ?? "no secret") → \(response.status)")
                #expect(response.errorCode == "unauthorized")
                #expect(response.hasErrorShape)
            }
        }
        let basic = try h.client.get("/v1/accounts/\(account.id)/entitlements", headers: [("Authorization", "Basic \(account.token)")])
        #expect(basic.status == 401, "only the Bearer scheme carries secrets")
        #expect(try h.client.get("/v1/publications/monthly/issues?include=all", as: H.adminKey).objects("issues").count == 3)
    }

    @Test func knownSecretsOutsideTheirScopeAre403() throws {
        let h = try H()
        try h.seedCatalog()
        let weeklyEditor = try h.createKey(#"{"role":"editor","publications":["weekly"]}"#)
        let service = try h.createKey(#"{"role":"service"}"#)
        let reader = try h.createAccount()
        let other = try h.createAccount()
        let issue = H.issueBody(id: "n1", publishedAt: "2026-01-05T00:00:00Z", paths: ["/content/monthly/n1/a.pdf"])
        let forbidden: [(String, String, String, String?)] = [
            // Editors of another publication.
            (weeklyEditor.secret, "POST", "/v1/publications/monthly/issues", issue),
            (weeklyEditor.secret, "PUT", "/v1/publications/monthly/issues/2026-01", issue),
            (weeklyEditor.secret, "DELETE", "/v1/publications/monthly/issues/2026-01", nil),
            (weeklyEditor.secret, "GET", "/v1/publications/monthly/issues?include=all", nil),
            // Editors on admin routes and on accounts.
            (weeklyEditor.secret, "PUT", "/v1/publications/weekly", #"{"title":"x"}"#),
            (weeklyEditor.secret, "POST", "/v1/keys", #"{"role":"service"}"#),
            (weeklyEditor.secret, "GET", "/v1/accounts/\(reader.id)/entitlements", nil),
            // Service keys on admin and editor routes.
            (service.secret, "PUT", "/v1/products/p", #"{"kind":"free","grants":["monthly"]}"#),
            (service.secret, "POST", "/v1/keys", #"{"role":"service"}"#),
            (service.secret, "DELETE", "/v1/keys/\(weeklyEditor.id)", nil),
            (service.secret, "POST", "/v1/publications/monthly/issues", issue),
            (service.secret, "GET", "/v1/publications/monthly/issues?include=all", nil),
            // An account acting for another account, or editing.
            (reader.token, "GET", "/v1/accounts/\(other.id)/entitlements", nil),
            (reader.token, "GET", "/v1/accounts/\(other.id)/issues", nil),
            (reader.token, "POST", "/v1/accounts/\(other.id)/publications/monthly/issues/2026-02/token", nil),
            (reader.token, "POST", "/v1/accounts/\(other.id)/receipts", #"{"receiptData":"AAAA"}"#),
            (reader.token, "GET", "/v1/publications/monthly/issues?include=all", nil),
            (reader.token, "POST", "/v1/keys", #"{"role":"service"}"#),
        ]
        for (secret, method, path, body) in forbidden {
            let response = try h.client.send(method, path, as: secret, body: body.map { Array($0.utf8) })
            #expect(response.status == 403, "\(method) \(path) → \(response.status) \(response.text)")
            #expect(response.errorCode == "forbidden")
        }
        // Nothing of that changed the catalog.
        let listed = try h.client.get("/v1/publications/monthly/issues?include=all", as: H.adminKey).objects("issues")
        #expect(listed.compactMap { $0["id"] as? String }.sorted() == ["2026-01", "2026-02", "2026-04"])
        #expect(listed.allSatisfy { $0["title"] as? String != nil && $0["state"] as? String != "retracted" })
    }

    @Test func editorsMayChangeTheirPublicationAndSeeEverythingInIt() throws {
        let h = try H()
        try h.seedCatalog()
        let editor = try h.createKey(#"{"role":"editor","publications":["monthly"]}"#)
        let issue = H.issueBody(id: "n1", publishedAt: "2026-07-01T00:00:00Z", paths: ["/content/monthly/n1/a.pdf"])
        #expect(try h.client.post("/v1/publications/monthly/issues", as: editor.secret, json: issue).status == 201)
        #expect(try h.client.delete("/v1/publications/monthly/issues/2026-01", as: editor.secret).status == 200)
        let all = try h.client.get("/v1/publications/monthly/issues?include=all", as: editor.secret)
        #expect(all.status == 200)
        let states = Dictionary(uniqueKeysWithValues: all.objects("issues").compactMap { item -> (String, String)? in
            guard let id = item["id"] as? String, let state = item["state"] as? String else { return nil }
            return (id, state)
        })
        #expect(states == ["n1": "scheduled", "2026-04": "scheduled", "2026-02": "published", "2026-01": "retracted"])
        let readers = try h.client.get("/v1/publications/monthly/issues", as: editor.secret).objects("issues")
        #expect(readers.compactMap { $0["id"] as? String } == ["2026-02"], "without include=all, editors see what readers see")
    }

    @Test func keysAreShownOnceAndStopWorkingAtOnceWhenDeleted() throws {
        let h = try H()
        try h.seedCatalog()
        let created = try h.client.post("/v1/keys", as: H.adminKey, json: #"{"role":"editor","publications":["monthly","monthly"]}"#)
        #expect(created.status == 201)
        #expect(created.json["role"] as? String == "editor")
        #expect(created.json["publications"] as? [String] == ["monthly"])
        let keyId = try #require(created.json["keyId"] as? String)
        let secret = try #require(created.json["key"] as? String)
        #expect(secret.utf8.count >= 43, "256 random bits")
        // The secret works, and its resolution is now cached.
        let issue = H.issueBody(id: "n1", publishedAt: "2026-07-01T00:00:00Z", paths: ["/content/monthly/n1/a.pdf"])
        #expect(try h.client.get("/v1/publications/monthly/issues?include=all", as: secret).status == 200)
        // No route shows a secret again.
        for path in ["/v1/publications", "/v1/products?all=true", "/openapi.json", "/metrics"] {
            #expect(!(try h.client.get(path, as: H.adminKey).text.contains(secret)), "\(path)")
        }
        let deleted = try h.client.delete("/v1/keys/\(keyId)", as: H.adminKey)
        #expect(deleted.status == 200)
        let refused = try h.client.post("/v1/publications/monthly/issues", as: secret, json: issue)
        #expect(refused.status == 401)
        #expect(try h.client.get("/v1/publications/monthly/issues?include=all", as: secret).status == 401)
        #expect(try h.client.delete("/v1/keys/\(keyId)", as: H.adminKey).status == 404)
        #expect(try h.client.delete("/v1/keys/key-unknown", as: H.adminKey).status == 404)
    }

    @Test func aRequestInFlightDuringRevocationDoesNotKeepTheKeyAlive() throws {
        var pausing: PausingKeyStore?
        let h = try H(wrapStore: { store in
            let wrapped = PausingKeyStore(store)
            pausing = wrapped
            return wrapped
        })
        let store = try #require(pausing)
        try h.seedCatalog()
        let editor = try h.createKey(#"{"role":"editor","publications":["monthly"]}"#)
        let path = "/v1/publications/monthly/issues?include=all"
        store.pauseNextKeyLookup()
        let inFlight = Gate()
        let client = h.client
        Thread.detachNewThread {
            _ = try? client.get(path, as: editor.secret)
            inFlight.open()
        }
        #expect(store.lookupRead.wait(), "the editor's request reached the store")
        #expect(try h.client.delete("/v1/keys/\(editor.id)", as: H.adminKey).status == 200)
        store.release.open()
        #expect(inFlight.wait(), "the paused request finished")
        #expect(try h.client.get(path, as: editor.secret).status == 401, "revoked means revoked, even for a lookup that raced")
    }

    @Test func keyBodiesAreCheckedStrictly() throws {
        let h = try H()
        try h.seedCatalog()
        let bad = [
            #"{"role":"admin"}"#,
            #"{"role":"editor"}"#,
            #"{"role":"editor","publications":[]}"#,
            #"{"role":"editor","publications":["nowhere"]}"#,
            #"{"role":"editor","publications":"monthly"}"#,
            #"{"role":"service","publications":["monthly"]}"#,
            #"{"role":1}"#,
            #"{}"#,
            "",
            "not json",
        ]
        for body in bad {
            let response = try h.client.send("POST", "/v1/keys", as: H.adminKey, body: Array(body.utf8))
            #expect(response.status == 400, "\(body) → \(response.status) \(response.text)")
            #expect(response.errorCode == "bad_request")
        }
    }

    @Test func accountsActForThemselvesAndServiceAndAdminForAnyAccount() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        let service = try h.createKey(#"{"role":"service"}"#)
        for secret in [reader.token, service.secret, H.adminKey] {
            let response = try h.client.get("/v1/accounts/\(reader.id)/entitlements", as: secret)
            #expect(response.status == 200)
            #expect(response.json["accountId"] as? String == reader.id)
        }
        #expect(try h.client.get("/v1/accounts/acct-nobody/entitlements", as: service.secret).status == 404)
        #expect(try h.client.get("/v1/accounts/acct-nobody/issues", as: H.adminKey).status == 404)
    }
}
