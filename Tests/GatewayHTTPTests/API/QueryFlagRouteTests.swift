import Testing
import GatewayTesting

/// Boolean query flags take `true` or `false` only, once (clean errors); anything
/// else is a 400 in the error shape, never a silent `false`.
@Suite struct QueryFlagRouteTests {
    @Test(arguments: ["?all=yes", "?all=1", "?all=TRUE", "?all=", "?all", "?all=true&all=false", "?all=true&all=true"])
    func productsRefuseAMalformedAllFlag(query: String) throws {
        let h = try H()
        try h.seedCatalog()
        let response = try h.client.get("/v1/products" + query)
        #expect(response.status == 400, "\(query) → \(response.status)")
        #expect(response.errorCode == "bad_request")
        #expect(response.hasErrorShape)
    }

    @Test func productsTakeTrueAndFalse() throws {
        let h = try H()
        try h.seedCatalog()
        #expect(try h.client.get("/v1/products?all=true").status == 200)
        #expect(try h.client.get("/v1/products?all=false").status == 200)
        #expect(try h.client.get("/v1/products?other=whatever").status == 200)
    }

    @Test(arguments: ["?entitled=1", "?entitled=no", "?publication=monthly&entitled=True", "?entitled=true&entitled=true"])
    func issueListsRefuseAMalformedEntitledFlag(query: String) throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        #expect(try h.client.get("/v1/accounts/\(reader.id)/issues", as: reader.token).status == 200)
        // Twice: the second request could be answered from memory on the event loop.
        for _ in 0..<2 {
            let response = try h.client.get("/v1/accounts/\(reader.id)/issues" + query, as: reader.token)
            #expect(response.status == 400, "\(query) → \(response.status)")
            #expect(response.errorCode == "bad_request")
        }
        #expect(try h.client.get("/v1/accounts/\(reader.id)/issues?entitled=false", as: reader.token).status == 200)
    }

    @Test func publicationIssuesTakeIncludeAllOnly() throws {
        let h = try H()
        try h.seedCatalog()
        #expect(try h.client.get("/v1/publications/monthly/issues?include=all", as: H.adminKey).status == 200)
        let response = try h.client.get("/v1/publications/monthly/issues?include=everything", as: H.adminKey)
        #expect(response.status == 400)
        #expect(response.errorCode == "bad_request")
    }
}
