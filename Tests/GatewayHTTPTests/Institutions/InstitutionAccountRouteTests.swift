import Foundation
@testable import GatewayConfiguration
import HTTPServer
import Testing
import Wire
import GatewayTesting

/// E30 on the account routes: from an address an institution covers, the account's list, tokens
/// and explanations add the institution's issues (reason `institution`) to the account's own;
/// from any other address, and through the account's kept answers, they do not.
@Suite struct InstitutionAccountRouteTests {
    static let covered = "192.0.2.77"
    static let uncovered = "198.51.100.1"

    /// `InstitutionRouteTests.body`: `monthly` from 2026-01-15 for 192.0.2.0/24 and 2001:db8::/32.
    func harnessWithInstitution() throws -> H {
        let h = try H()
        try h.seedCatalog()
        let made = try h.client.post("/v1/institutions", as: H.adminKey, json: InstitutionRouteTests.body)
        #expect(made.status == 201, "\(made.text)")
        return h
    }

    func list(_ h: H, _ reader: (id: String, token: String), from address: String?,
              headers: [(String, String)] = []) throws -> APIResponse {
        try h.client.send("GET", "/v1/accounts/\(reader.id)/issues?publication=monthly", as: reader.token, headers: headers,
                          sourceAddress: address)
    }

    func reasons(_ list: APIResponse, _ issue: String) -> [String] {
        list.objects("issues").first { $0["id"] as? String == issue }?["reasons"] as? [String] ?? []
    }

    func entitled(_ list: APIResponse, _ issue: String) -> Bool? {
        list.objects("issues").first { $0["id"] as? String == issue }?["entitled"] as? Bool
    }

    /// The fast path's request for the same list, as an event loop would see it.
    func fastRequest(_ reader: (id: String, token: String), from address: String?) -> HTTPRequest {
        var headers = HTTPHeaders()
        headers.append(name: "Authorization", value: "Bearer \(reader.token)")
        var request = HTTPRequest(method: "GET", target: "/v1/accounts/\(reader.id)/issues?publication=monthly", headers: headers,
                                  sourceAddress: address)
        request.pathParameters = ["accountId": reader.id]
        return request
    }

    @Test func e30AnAccountWithoutPurchasesGetsTheInstitutionsIssuesOnlyFromACoveredAddress() throws {
        let h = try harnessWithInstitution()
        let reader = try h.createAccount()

        let inside = try list(h, reader, from: Self.covered)
        #expect(inside.status == 200, "\(inside.text)")
        #expect(reasons(inside, "2026-01") == ["unlockedAtStart"], "the issue current at the institution's start (E13)")
        #expect(reasons(inside, "2026-02") == ["free", "institution"])
        #expect(inside.json["institution"] == nil, "an account's list, not the institution route's")
        var uncoveredFast = fastRequest(reader, from: Self.uncovered)
        #expect(h.runtime.api.accounts.issueListPlan(&uncoveredFast) == nil, "the covered answer was not kept for the account")

        let outside = try list(h, reader, from: Self.uncovered)
        #expect(outside.status == 200)
        #expect(reasons(outside, "2026-01") == ["noPurchase"] && entitled(outside, "2026-01") == false)
        #expect(!outside.text.contains("\"institution\""), "right after the covered request: nothing of it")
        #expect(outside.header("ETag") != inside.header("ETag"))

        // The account's own answer is kept now: served from memory to an uncovered address only.
        var again = fastRequest(reader, from: Self.uncovered)
        let fast = try #require(h.runtime.api.accounts.issueListPlan(&again)?.answer)
        #expect(fast.body == Array(outside.body))
        var coveredFast = fastRequest(reader, from: Self.covered)
        #expect(h.runtime.api.accounts.issueListPlan(&coveredFast) == nil, "a covered address is answered by the route")
        let insideAgain = try list(h, reader, from: Self.covered, headers: [("If-None-Match", outside.header("ETag") ?? "")])
        #expect(insideAgain.status == 200 && reasons(insideAgain, "2026-01") == ["unlockedAtStart"],
                "the uncovered list's tag does not match the covered list")
        #expect(insideAgain.body == inside.body)
    }

    @Test func e30AnAccountGetsATokenAndAnExplanationForAnInstitutionsIssueFromACoveredAddressOnly() throws {
        let h = try harnessWithInstitution()
        let reader = try h.createAccount()
        let path = "/v1/accounts/\(reader.id)/publications/monthly/issues/2026-01/token"

        let outsideFirst = try h.client.send("POST", path, as: reader.token, sourceAddress: Self.uncovered)
        #expect(outsideFirst.status == 403 && outsideFirst.errorCode == "not_entitled")
        let inside = try h.client.send("POST", path, as: reader.token, sourceAddress: Self.covered)
        #expect(inside.status == 200, "\(inside.text)")
        let jws = try #require(inside.json["token"] as? String)
        let payload = try #require(Base64URL.decode(String(jws.split(separator: ".")[1])))
        let claims = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
        #expect(claims["sub"] as? String == reader.id, "an account route's token is in the account's name")
        let outside = try h.client.send("POST", path, as: reader.token, sourceAddress: Self.uncovered)
        #expect(outside.status == 403 && outside.errorCode == "not_entitled", "right after the covered request")
        let ipv6 = try h.client.send("POST", path, as: reader.token, sourceAddress: "2001:db8::9")
        #expect(ipv6.status == 200)

        let explanation = "/v1/accounts/\(reader.id)/publications/monthly/issues/2026-02/explanation"
        let explainedInside = try h.client.send("GET", explanation, as: H.adminKey, sourceAddress: Self.covered)
        #expect(explainedInside.status == 200, "\(explainedInside.text)")
        #expect(explainedInside.json["reasons"] as? [String] == ["free", "institution"])
        let explainedOutside = try h.client.send("GET", explanation, as: H.adminKey, sourceAddress: Self.uncovered)
        #expect(explainedOutside.json["reasons"] as? [String] == ["free"])
        let paid = "/v1/accounts/\(reader.id)/publications/monthly/issues/2026-01/explanation"
        let paidInside = try h.client.send("GET", paid, as: reader.token, sourceAddress: Self.covered)
        #expect(paidInside.json["entitled"] as? Bool == true)
        let grant = (paidInside.json["evidence"] as? [String: Any])?["grant"] as? [String: Any]
        #expect(grant?["source"] as? String == "institution", "the institution's grant is the evidence")
    }

    @Test func e30AnAccountWithItsOwnSubscriptionGetsTheUnionFromACoveredAddress() throws {
        let h = try harnessWithInstitution()
        let reader = try h.createAccount()
        try h.subscribe(reader.id)  // 2026-01-15 to 2026-03-15

        let own = try list(h, reader, from: Self.uncovered)
        #expect(reasons(own, "2026-02") == ["activePeriod", "free"])
        let both = try list(h, reader, from: Self.covered)
        // E30: `institution` in place of `granted`, so only where no store reason applies.
        #expect(reasons(both, "2026-02") == ["activePeriod", "free"], "the subscription's reason stands")
        #expect(reasons(both, "2026-01") == ["unlockedAtStart"])
        let ownAgain = try list(h, reader, from: Self.uncovered)
        #expect(ownAgain.body == own.body)

        // The weekly, which the institution lacks: the account's own answer.
        let weekly = try h.client.send("GET", "/v1/accounts/\(reader.id)/issues?publication=weekly", as: reader.token,
                                       sourceAddress: Self.covered)
        #expect(weekly.status == 200 && !weekly.text.contains("\"institution\""))
    }
}
