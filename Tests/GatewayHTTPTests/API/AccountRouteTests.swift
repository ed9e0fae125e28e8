import Foundation
@testable import GatewayConfiguration
import IssueCatalog
import Testing
import Wire
import GatewayTesting

/// Accounts, entitlements and the reader's issue list (http-api.md, Accounts and entitlements),
/// with E16 (scheduled and retracted issues are never a reader's).
@Suite struct AccountRouteTests {
    @Test func accountsAreCreatedWithOrWithoutAnAppAccountToken() throws {
        let h = try H()
        let plain = try h.client.post("/v1/accounts")
        #expect(plain.status == 201)
        #expect((plain.json["accountId"] as? String)?.isEmpty == false)
        #expect(((plain.json["accountToken"] as? String)?.utf8.count ?? 0) >= 43)
        let uuid = "3f0e4c1a-8d5b-4e6f-9a7c-2b1d0e9f8a7b"
        #expect(try h.client.post("/v1/accounts", json: #"{"appAccountToken":"\#(uuid)","other":[1]}"#).status == 201)
        // Unknown fields are ignored whatever they hold, numbers past 64 bits or past Double included.
        let unknown = try h.client.post("/v1/accounts", json: #"{"n":99999999999999999999,"m":[-1e400],"o":{"p":1E999}}"#)
        #expect(unknown.status == 201)
        let taken = try h.client.post("/v1/accounts", json: #"{"appAccountToken":"\#(uuid.uppercased())"}"#)
        #expect(taken.status == 409, "the same UUID in capitals is the same token")
        #expect(taken.errorCode == "app_account_token_in_use")
        #expect(taken.errorMessage?.lowercased().contains("sqlite") == false)
        #expect(taken.errorMessage?.lowercased().contains("constraint") == false)
        for body in [#"{"appAccountToken":"nope"}"#, #"{"appAccountToken":7}"#, #"[]"#, #"{"#] {
            let response = try h.client.post("/v1/accounts", json: body)
            #expect(response.status == 400, "\(body)")
            #expect(response.hasErrorShape)
        }
    }

    @Test func entitlementsShowTheSubscriptionWithInstantsInUTCMilliseconds() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        let empty = try h.client.get("/v1/accounts/\(reader.id)/entitlements", as: reader.token)
        #expect(empty.status == 200)
        #expect(empty.json["subscriptions"] as? [Any] != nil && empty.objects("subscriptions").isEmpty)
        #expect(empty.json["purchases"] as? [Any] != nil && empty.objects("purchases").isEmpty)
        try h.subscribe(reader.id)
        let answer = try h.client.get("/v1/accounts/\(reader.id)/entitlements", as: reader.token)
        #expect(answer.json["accountId"] as? String == reader.id)
        let subscription = try #require(answer.objects("subscriptions").first)
        #expect(subscription["originalTransactionId"] as? String == "sub-1")
        #expect(subscription["productId"] as? String == "monthly.1m")
        #expect(subscription["environment"] as? String == "production")
        #expect(subscription["state"] as? String == "active")
        #expect(subscription["expiresAt"] as? String == "2026-03-15T00:00:00.000Z")
        #expect(subscription["grants"] as? [String] == ["monthly"])
        // After the expiry the same facts read as expired (the clock, not a change, moved).
        h.clock.set(Instant(rfc3339: "2026-04-01T00:00:00Z")!)
        let later = try h.client.get("/v1/accounts/\(reader.id)/entitlements", as: reader.token)
        #expect((later.objects("subscriptions").first?["state"] as? String)?.hasPrefix("expired") == true)
        #expect(Self.instants(in: later.json).allSatisfy(Self.isUTCMilliseconds), "\(later.text)")
    }

    @Test func theIssueListSaysWhatIsEntitledAndWhy() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        func list(_ query: String = "") throws -> [String: [String: Any]] {
            let response = try h.client.get("/v1/accounts/\(reader.id)/issues\(query)", as: reader.token)
            #expect(response.status == 200)
            return Dictionary(uniqueKeysWithValues: response.objects("issues").compactMap { item in
                (item["id"] as? String).map { ($0, item) }
            })
        }
        let before = try list()
        #expect(Set(before.keys) == ["2026-01", "2026-02", "w1"], "E16: 2026-04 is scheduled")
        #expect(before["2026-01"]?["entitled"] as? Bool == false)
        #expect(before["2026-01"]?["reasons"] as? [String] == ["noPurchase"])
        #expect(before["2026-02"]?["entitled"] as? Bool == true)
        #expect(before["2026-02"]?["reasons"] as? [String] == ["free"])
        #expect(before["2026-02"]?["publishedAt"] as? String == "2026-02-01T05:00:00.000Z")
        #expect(before["2026-01"]?["publicationId"] as? String == "monthly")
        #expect((before["2026-01"]?["assets"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == H.paidPaths)
        #expect(Set(try list("?entitled=true").keys) == ["2026-02"])
        #expect(Set(try list("?publication=weekly").keys) == ["w1"])

        try h.subscribe(reader.id)
        let after = try list("?publication=monthly")
        #expect(Set(after.keys) == ["2026-01", "2026-02"])
        #expect(after["2026-01"]?["entitled"] as? Bool == true)
        #expect((after["2026-01"]?["reasons"] as? [String])?.isEmpty == false)
        #expect(Set(try list("?entitled=true").keys) == ["2026-01", "2026-02"])
        // Retracting an entitled issue takes it off the list at once.
        #expect(try h.client.delete("/v1/publications/monthly/issues/2026-01", as: H.adminKey).status == 200)
        #expect(Set(try list().keys) == ["2026-02", "w1"])
        #expect(try h.client.get("/v1/accounts/\(reader.id)/issues?publication=nowhere", as: reader.token).status == 404)
    }

    @Test func aProductsNewGrantsReachSubscribersOnTheNextRequest() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        try h.subscribe(reader.id)
        #expect(try h.entitledIssueIds(reader) == ["2026-01", "2026-02"])
        #expect(try h.token(for: reader, publication: "weekly", issue: "w1").status == 403)
        let widened = try h.client.put("/v1/products/monthly.1m", as: H.adminKey, json: """
            {"kind":"autoRenewable","grants":["monthly","weekly"],"subscriptionGroup":"monthly-group","level":1}
            """)
        #expect(widened.status == 200)
        #expect(try h.entitledIssueIds(reader) == ["2026-01", "2026-02", "w1"])
        #expect(try h.token(for: reader, publication: "weekly", issue: "w1").status == 200)
        let grants = try h.client.get("/v1/accounts/\(reader.id)/entitlements", as: reader.token)
            .objects("subscriptions").first?["grants"] as? [String]
        #expect(grants.map(Set.init) == ["monthly", "weekly"])
        // And narrowed again: the weekly issue is gone from the entitled list at once.
        #expect(try h.client.put("/v1/products/monthly.1m", as: H.adminKey, json: """
            {"kind":"autoRenewable","grants":["weekly"],"subscriptionGroup":"monthly-group","level":1}
            """).status == 200)
        #expect(try h.entitledIssueIds(reader) == ["2026-02", "w1"])
    }

    @Test func everyInstantTheAPIAnswersIsRFC3339UTCWithMilliseconds() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        try h.subscribe(reader.id)
        let answers = [
            try h.client.get("/v1/products?all=true"),
            try h.client.get("/v1/publications/monthly/issues?include=all", as: H.adminKey),
            try h.client.get("/v1/accounts/\(reader.id)/issues", as: reader.token),
            try h.client.get("/v1/accounts/\(reader.id)/entitlements", as: reader.token),
            try h.token(for: reader, issue: "2026-01"),
        ]
        var seen = 0
        for answer in answers {
            #expect(answer.status == 200)
            let instants = Self.instants(in: answer.json)
            seen += instants.count
            for instant in instants { #expect(Self.isUTCMilliseconds(instant), "\(instant)") }
        }
        #expect(seen >= 9, "discontinuedAt, 3 + 3 publishedAt, expiresAt twice")
    }

    /// Every string value under a key ending in `At` (the spec's instants).
    static func instants(in value: Any, key: String = "") -> [String] {
        if let object = value as? [String: Any] { return object.flatMap { instants(in: $0.value, key: $0.key) } }
        if let array = value as? [Any] { return array.flatMap { instants(in: $0, key: key) } }
        if key.hasSuffix("At"), let text = value as? String { return [text] }
        return []
    }

    static func isUTCMilliseconds(_ text: String) -> Bool {
        text.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil && Instant(rfc3339: text) != nil
    }
}
