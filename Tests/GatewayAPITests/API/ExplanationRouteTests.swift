import Testing

/// `GET …/issues/{issueId}/explanation` (http-api.md, Support; E20).
@Suite struct ExplanationRouteTests {
    typealias H = GatewayHarness
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

    @Test func scheduledIssuesAreExplainedToo() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        let scheduled = try h.client.get(Self.path(reader.id, "2026-04"), as: reader.token)
        #expect(scheduled.status == 200)
        #expect(scheduled.json["reasons"] as? [String] == ["scheduled"])
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
