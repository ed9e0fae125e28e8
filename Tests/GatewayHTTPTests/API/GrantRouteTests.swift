import Foundation
import Entitle
import Testing
import GatewayTesting

/// Grants through the API as a publisher's backend would use them (E21).
@Suite struct GrantRouteTests {
    static let printBody = #"{"source":"print","externalId":"sub-42","publications":["monthly","weekly"],"start":"2026-01-10T00:00:00Z","end":"2026-02-10T00:00:00Z","note":"print subscriber"}"#

    @Test func aPrintSubscribersGrantEntitlesItsWindowOnceAndRevokingRemovesExactlyThat() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        let service = try h.createKey(#"{"role":"service"}"#)
        let before = try h.entitledIssueKeys(reader)
        let given = try h.client.post("/v1/accounts/\(reader.id)/grants", as: service.secret, json: Self.printBody)
        #expect(given.status == 201)
        let grantId = try #require(given.json["grantId"] as? String)
        let withGrant = try h.entitledIssueKeys(reader)
        #expect(withGrant.isSuperset(of: before) && withGrant.count > before.count)
        #expect(withGrant.contains("monthly/2026-01"), "the issue current at the grant's start (E13) and the window")
        let list = try h.client.get("/v1/accounts/\(reader.id)/issues?publication=monthly", as: reader.token)
        let january = list.objects("issues").first { $0["id"] as? String == "2026-01" }
        #expect((january?["reasons"] as? [String]).map { !$0.isEmpty } == true)
        // Sent again: nothing changes.
        let again = try h.client.post("/v1/accounts/\(reader.id)/grants", as: service.secret, json: Self.printBody)
        #expect(again.status == 200 && again.json["grantId"] as? String == grantId)
        #expect(try h.entitledIssueKeys(reader) == withGrant)
        let entitlements = try h.client.get("/v1/accounts/\(reader.id)/entitlements", as: reader.token)
        let listed = try #require((entitlements.json["grants"] as? [[String: Any]])?.first)
        #expect(listed["externalId"] as? String == "sub-42")
        #expect(listed["issue"] is NSNull, "a window over whole publications names no issue")
        #expect(listed["note"] == nil, "the publisher's note goes to its backend, not to the reader's app")
        #expect(given.json["note"] as? String == "print subscriber")
        // Revoked: exactly those issues go.
        let revoked = try h.client.delete("/v1/accounts/\(reader.id)/grants/\(grantId)", as: service.secret)
        #expect(revoked.status == 200 && revoked.json["revokedAt"] is String)
        #expect(try h.entitledIssueKeys(reader) == before)
        #expect(try h.client.delete("/v1/accounts/\(reader.id)/grants/\(grantId)", as: service.secret).status == 200)
        // A revoked grant is as if never given (E6 for grants): sending it again is no success.
        let resent = try h.client.post("/v1/accounts/\(reader.id)/grants", as: service.secret, json: Self.printBody)
        #expect(resent.status == 409 && resent.errorCode == "conflict")
        #expect(try h.entitledIssueKeys(reader) == before)
    }

    @Test func otherTermsUnderTheSameIdsAre409AndBadInputStoresNothing() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        #expect(try h.client.post("/v1/accounts/\(reader.id)/grants", as: H.adminKey, json: Self.printBody).status == 201)
        let longer = Self.printBody.replacingOccurrences(of: "2026-02-10", with: "2026-03-10")
        let conflict = try h.client.post("/v1/accounts/\(reader.id)/grants", as: H.adminKey, json: longer)
        #expect(conflict.status == 409 && conflict.errorCode == "conflict")
        let bad = [
            #"{"source":"print","externalId":"x","publications":["nowhere"],"start":"2026-01-10T00:00:00Z"}"#,
            #"{"source":"print","externalId":"x","publications":["monthly"],"start":"2026-01-10T00:00:00Z","end":"2026-01-09T00:00:00Z"}"#,
            #"{"source":"print","externalId":"x","publications":[],"start":"2026-01-10T00:00:00Z"}"#,
            #"{"source":"","externalId":"x","publications":["monthly"],"start":"2026-01-10T00:00:00Z"}"#,
            #"{"source":"print","externalId":"x","publications":["monthly"]}"#,
        ]
        for body in bad {
            let answer = try h.client.post("/v1/accounts/\(reader.id)/grants", as: H.adminKey, json: body)
            #expect(answer.status == 400 && answer.hasErrorShape, "\(body)")
        }
        let entitlements = try h.client.get("/v1/accounts/\(reader.id)/entitlements", as: reader.token)
        #expect((entitlements.json["grants"] as? [Any])?.count == 1)
    }

    @Test func onlyServiceAndAdminGiveAndUnknownsAre404() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        #expect(try h.client.post("/v1/accounts/\(reader.id)/grants", as: reader.token, json: Self.printBody).status == 403)
        #expect(try h.client.post("/v1/accounts/\(reader.id)/grants", json: Self.printBody).status == 401)
        #expect(try h.client.post("/v1/accounts/acct-nobody/grants", as: H.adminKey, json: Self.printBody).status == 404)
        #expect(try h.client.delete("/v1/accounts/\(reader.id)/grants/grant-nope", as: H.adminKey).status == 404)
    }

    /// E4 moves subscriptions between accounts; a grant stays with the account it was given to.
    @Test(arguments: [OwnershipPolicy.transfer, .keep])
    func grantsStayWithTheirAccountWhateverOwnershipDoes(_ policy: OwnershipPolicy) throws {
        let h = try H(configure: { $0.transferPolicy = policy })
        try h.seedCatalog()
        let first = try h.createAccount(), second = try h.createAccount()
        try h.subscribe(first.id, original: "sub-e4")
        #expect(try h.client.post("/v1/accounts/\(first.id)/grants", as: H.adminKey, json: Self.printBody).status == 201)
        let before = try h.entitledIssueKeys(first)
        try? h.subscribe(second.id, original: "sub-e4")  // transfer moves it; keep refuses (409)
        let entitlements = try h.client.get("/v1/accounts/\(first.id)/entitlements", as: first.token)
        #expect((entitlements.json["grants"] as? [[String: Any]])?.count == 1)
        #expect((try h.client.get("/v1/accounts/\(second.id)/entitlements", as: second.token).json["grants"] as? [Any])?.isEmpty == true)
        // What the grant alone entitles, seen on a third account given the same terms.
        let third = try h.createAccount()
        let sameTerms = Self.printBody.replacingOccurrences(of: "sub-42", with: "sub-43")
        #expect(try h.client.post("/v1/accounts/\(third.id)/grants", as: H.adminKey, json: sameTerms).status == 201)
        let grantOnly = try h.entitledIssueKeys(third)
        #expect(!grantOnly.isEmpty && before.isSuperset(of: grantOnly))
        #expect(try h.entitledIssueKeys(first).isSuperset(of: grantOnly), "the grant's issues stay with the first account")
    }
}
