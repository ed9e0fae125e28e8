import Foundation
import GatewayConfiguration
import Testing
import Wire
import GatewayTesting

/// Institutions through the API (E30): admin routes, v4 and v6 ranges, trusted and untrusted
/// proxies, and a token for an institution's reader.
@Suite struct InstitutionRouteTests {
    static let body = #"{"name":"City Library","publications":["monthly"],"networks":["192.0.2.0/24","2001:db8::/32"],"start":"2026-01-15T00:00:00Z","end":null}"#

    func create(_ h: H, _ body: String = InstitutionRouteTests.body) throws -> APIResponse {
        try h.client.post("/v1/institutions", as: H.adminKey, json: body)
    }

    func issues(_ h: H, from address: String, forwardedFor: String? = nil) throws -> APIResponse {
        try h.client.send("GET", "/v1/institution/issues?publication=monthly",
                          headers: forwardedFor.map { [("X-Forwarded-For", $0)] } ?? [], sourceAddress: address)
    }

    func reasons(_ list: APIResponse, _ issue: String) -> [String] {
        list.objects("issues").first { $0["id"] as? String == issue }?["reasons"] as? [String] ?? []
    }

    @Test func e30ACoveredAddressOfEitherFamilyListsTheInstitutionsIssues() throws {
        let h = try H()
        try h.seedCatalog()
        let made = try create(h)
        #expect(made.status == 201, "\(made.text)")
        let id = try #require(made.json["institutionId"] as? String)
        for address in ["192.0.2.77", "2001:db8:1::5", "::ffff:192.0.2.8"] {
            let list = try issues(h, from: address)
            #expect(list.status == 200, "\(address): \(list.text)")
            #expect((list.json["institution"] as? [String: Any])?["institutionId"] as? String == id)
            #expect(reasons(list, "2026-01") == ["unlockedAtStart"], "the issue current at the start (E13)")
            #expect(reasons(list, "2026-02").contains("institution") && !list.text.contains("\"granted\""))
        }
        let outside = try issues(h, from: "198.51.100.1")
        #expect(outside.status == 403 && outside.errorCode == "not_in_institution")
        let weekly = try h.client.send("GET", "/v1/institution/issues?publication=weekly&entitled=true", sourceAddress: "192.0.2.77")
        #expect(weekly.status == 200 && weekly.objects("issues").isEmpty, "a publication it lacks: as an account without purchases")
    }

    @Test func e30ForwardedForCountsOnlyFromATrustedProxy() throws {
        let h = try H(configure: { $0.trustedProxies = [try! NetworkRange(parsing: "10.0.0.0/8")] })
        try h.seedCatalog()
        #expect(try create(h).status == 201)
        #expect(try issues(h, from: "10.0.0.2", forwardedFor: "198.51.100.9, 192.0.2.7").status == 200)
        #expect(try issues(h, from: "10.0.0.2", forwardedFor: "192.0.2.7, 198.51.100.9").status == 403, "a spoofed left hop")
        #expect(try issues(h, from: "203.0.113.5", forwardedFor: "192.0.2.7").status == 403, "an untrusted peer's header")
        #expect(try issues(h, from: "192.0.2.7", forwardedFor: "198.51.100.9").status == 200, "the connection's own address")
    }

    @Test func e30AnInstitutionsReaderGetsATokenInItsName() throws {
        let h = try H()
        try h.seedCatalog()
        let id = try #require(try create(h).json["institutionId"] as? String)
        let token = try h.client.send("POST", "/v1/institution/publications/monthly/issues/2026-01/token", sourceAddress: "192.0.2.7")
        #expect(token.status == 200, "\(token.text)")
        let jws = try #require(token.json["token"] as? String)
        let payload = try #require(Base64URL.decode(String(jws.split(separator: ".")[1])))
        let claims = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
        #expect(claims["sub"] as? String == "institution:\(id)")
        let weekly = try h.client.send("POST", "/v1/institution/publications/weekly/issues/w1/token", sourceAddress: "192.0.2.7")
        #expect(weekly.status == 403 && weekly.errorCode == "not_entitled")
        let outside = try h.client.send("POST", "/v1/institution/publications/monthly/issues/2026-01/token", sourceAddress: "198.51.100.1")
        #expect(outside.status == 403 && outside.errorCode == "not_in_institution")
    }

    @Test func e30BadAndOverlappingNetworksAreRefusedAndTheAdminManagesInstitutions() throws {
        let h = try H()
        try h.seedCatalog()
        let hostBits = try create(h, Self.body.replacingOccurrences(of: "192.0.2.0/24", with: "192.0.2.1/24"))
        #expect(hostBits.status == 400 && hostBits.errorCode == "invalid_network" && hostBits.text.contains("192.0.2.1/24"))
        let id = try #require(try create(h).json["institutionId"] as? String)
        let own = try create(h, Self.body.replacingOccurrences(of: "\"2001:db8::/32\"", with: "\"192.0.2.0/25\""))
        #expect(own.status == 400 && own.errorCode == "invalid_network")
        #expect(try h.client.get("/v1/institutions", as: H.adminKey).objects("institutions").count == 1)
        let reader = try h.createAccount()
        #expect(try h.client.get("/v1/institutions", as: reader.token).status == 403)
        let renamed = try h.client.put("/v1/institutions/\(id)", as: H.adminKey,
                                       json: Self.body.replacingOccurrences(of: "City Library", with: "Town Library"))
        #expect(renamed.status == 200 && renamed.json["name"] as? String == "Town Library", "its own ranges are no overlap")
        #expect(try h.client.get("/v1/institutions/\(id)", as: H.adminKey).json["name"] as? String == "Town Library")
        #expect(try h.client.delete("/v1/institutions/\(id)", as: H.adminKey).status == 200)
        #expect(try h.client.get("/v1/institutions/\(id)", as: H.adminKey).status == 404)
        #expect(try issues(h, from: "192.0.2.7").status == 403)
    }
}
