import Foundation
import Testing
import GatewayTesting

/// `GET …/issues/{issueId}/explanation` (http-api.md, Support; E20).
@Suite struct ExplanationRouteTests {
    static func path(_ accountId: String, _ issueId: String, publication: String = "monthly") -> String {
        "/v1/accounts/\(accountId)/publications/\(publication)/issues/\(issueId)/explanation"
    }

    @Test func explainsWithReasonsEvidenceAndASentence() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        try h.subscribe(reader.id, original: "sub-9")
        let list = try h.client.get("/v1/accounts/\(reader.id)/issues?publication=monthly", as: reader.token)
        for item in list.objects("issues") {
            let issueId = try #require(item["id"] as? String)
            let answer = try h.client.get(Self.path(reader.id, issueId), as: reader.token)
            #expect(answer.status == 200)
            #expect(answer.json["entitled"] as? Bool == item["entitled"] as? Bool, "the list and the explanation agree")
            #expect(answer.json["reasons"] as? [String] == item["reasons"] as? [String])
            #expect((answer.json["summary"] as? String)?.isEmpty == false)
            let evidence = try #require(answer.json["evidence"] as? [String: Any])
            #expect(Set(evidence.keys) == ["periodContaining", "periodBefore", "periodAfter", "transaction", "refunded", "grant", "history"])
            if (item["reasons"] as? [String]) == ["activePeriod"] {
                #expect((evidence["transaction"] as? [String: Any])?["transactionId"] as? String == "sub-9")
            }
        }
        let stranger = try h.createAccount()
        let none = try h.client.get(Self.path(stranger.id, "2026-01"), as: stranger.token)
        #expect(none.json["reasons"] as? [String] == ["noPurchase"])
        #expect((none.json["summary"] as? String)?.hasPrefix("This account has no subscription") == true)
    }

    /// E16: a scheduled issue is listed to nobody but editors, so a reader's own token gets the
    /// 404 of an unknown issue (no title, no asset paths); support staff's keys see the reason.
    @Test func scheduledIssuesAreExplainedToSupportAndHiddenFromReaders() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        let hidden = try h.client.get(Self.path(reader.id, "2026-04"), as: reader.token)
        #expect(hidden.status == 404)
        #expect(hidden.text.contains("/content/") == false)
        let scheduled = try h.client.get(Self.path(reader.id, "2026-04"), as: H.adminKey)
        #expect(scheduled.status == 200)
        #expect(scheduled.json["reasons"] as? [String] == ["scheduled"])
    }

    /// The spec's evidence names "the period or purchase or grant that entitles it" (E21).
    @Test func aGrantThatEntitlesIsNamedInTheEvidence() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        let body = #"{"source":"print","externalId":"p-7","publications":["monthly"],"start":"2026-01-10T00:00:00Z","end":"2026-02-10T00:00:00Z","note":"staff"}"#
        #expect(try h.client.post("/v1/accounts/\(reader.id)/grants", as: H.adminKey, json: body).status == 201)
        let answer = try h.client.get(Self.path(reader.id, "2026-01"), as: reader.token)
        #expect(answer.status == 200 && answer.json["entitled"] as? Bool == true)
        let evidence = try #require(answer.json["evidence"] as? [String: Any])
        let grant = try #require(evidence["grant"] as? [String: Any])
        #expect(grant["source"] as? String == "print" && grant["externalId"] as? String == "p-7")
        #expect(grant["note"] == nil)
        #expect((answer.json["summary"] as? String)?.hasPrefix("Your publisher gave you access") == true)
        // An issue the grant does not reach names no grant.
        let outside = try h.client.get(Self.path(reader.id, "2026-04"), as: H.adminKey)
        #expect(outside.status == 200)
        #expect((outside.json["evidence"] as? [String: Any])?["grant"] is NSNull)
        #expect((outside.json["evidence"] as? [String: Any])?["grant"] is NSNull)
    }

    @Test func refusalsAreTheUsualOnes() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        let other = try h.createAccount()
        #expect(try h.client.get(Self.path(reader.id, "nope"), as: reader.token).status == 404)
        #expect(try h.client.get(Self.path(reader.id, "2026-01", publication: "nowhere"), as: reader.token).status == 404)
        #expect(try h.client.get(Self.path(reader.id, "2026-01"), as: other.token).status == 403)
        #expect(try h.client.get(Self.path(reader.id, "2026-01")).status == 401)
        #expect(try h.client.get(Self.path(reader.id, "2026-01"), as: H.adminKey).status == 200)
    }
}
