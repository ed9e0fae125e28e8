import Testing
import GatewayTesting

/// `GET /v1/lookup` (http-api.md, Support): the owner of whatever id a support agent has.
@Suite struct LookupRouteTests {
    @Test func findsTheOwnerByAnyId() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        try h.subscribe(reader.id, original: "sub-7")
        let service = try h.createKey(#"{"role":"service"}"#)
        for query in ["originalTransactionId=sub-7", "transactionId=sub-7", "accountId=\(reader.id)",
                      "originalTransactionId=sub-7&environment=production"] {
            let found = try h.client.get("/v1/lookup?" + query, as: service.secret)
            #expect(found.status == 200, "\(query)")
            #expect(found.json["accountId"] as? String == reader.id, "\(query)")
        }
        let byOriginal = try h.client.get("/v1/lookup?originalTransactionId=sub-7", as: H.adminKey)
        #expect(byOriginal.json["environment"] as? String == "production")
        #expect(byOriginal.json["originalTransactionId"] as? String == "sub-7")
        // http-api.md: what reports a subscription or transaction reports its store; an account has none.
        #expect(byOriginal.json["store"] as? String == "appStore")
        let byTransaction = try h.client.get("/v1/lookup?transactionId=sub-7", as: H.adminKey)
        #expect(byTransaction.json["store"] as? String == "appStore")
        #expect(try h.client.get("/v1/lookup?accountId=\(reader.id)", as: H.adminKey).json["store"] == nil)
    }

    @Test func findsAnAccountByItsAppAccountTokenInAnyCase() throws {
        let h = try H()
        let uuid = "3f0e4c1a-8d5b-4e6f-9a7c-2b1d0e9f8a7b"
        let created = try h.client.post("/v1/accounts", json: #"{"appAccountToken":"\#(uuid)"}"#)
        let accountId = try #require(created.json["accountId"] as? String)
        let found = try h.client.get("/v1/lookup?appAccountToken=\(uuid.uppercased())", as: H.adminKey)
        #expect(found.status == 200)
        #expect(found.json["accountId"] as? String == accountId)
        #expect(found.json["appAccountToken"] as? String == uuid)
    }

    @Test func nobodyIs404AndOnlyServiceAndAdminMayAsk() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        try h.subscribe(reader.id, original: "sub-8")
        #expect(try h.client.get("/v1/lookup?originalTransactionId=sub-8&environment=sandbox", as: H.adminKey).status == 404)
        #expect(try h.client.get("/v1/lookup?transactionId=unknown", as: H.adminKey).errorCode == "not_found")
        #expect(try h.client.get("/v1/lookup?originalTransactionId=sub-8").status == 401)
        #expect(try h.client.get("/v1/lookup?originalTransactionId=sub-8", as: reader.token).status == 403)
        let editor = try h.createKey(#"{"role":"editor","publications":["monthly"]}"#)
        #expect(try h.client.get("/v1/lookup?originalTransactionId=sub-8", as: editor.secret).status == 403)
        for bad in ["", "?originalTransactionId=", "?originalTransactionId=a&transactionId=b",
                    "?originalTransactionId=sub-8&environment=staging"] {
            #expect(try h.client.get("/v1/lookup" + bad, as: H.adminKey).status == 400, "\(bad)")
        }
    }
}
