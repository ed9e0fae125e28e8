import Foundation
import Testing
import GatewayTesting

/// Access codes through the API (E22).
@Suite struct AccessCodeRouteTests {
    /// A well-formed code no batch ever issued.
    static let unknownCode = "AAAA-BBBB-CCCC-DDDD"

    /// Redeems `code` for the reader, with the reader's own token unless another secret is given.
    func redeem(_ h: H, _ code: String, for reader: (id: String, token: String), as secret: String? = nil) throws -> APIResponse {
        try h.client.post("/v1/accounts/\(reader.id)/codes/redeem", as: secret ?? reader.token, json: #"{"code":"\#(code)"}"#)
    }

    func batch(_ h: H, _ body: String) throws -> (id: String, codes: [String]) {
        let made = try h.client.post("/v1/publications/monthly/codes", as: H.adminKey, json: body)
        #expect(made.status == 201)
        return (try #require(made.json["batchId"] as? String), try #require(made.json["codes"] as? [String]))
    }

    @Test func aCodeRedeemedOnceEntitlesAndNeverAgain() throws {
        let h = try H()
        try h.seedCatalog()
        let (batchId, codes) = try batch(h, #"{"count":3,"issueId":"2026-01"}"#)
        #expect(codes.count == 3 && Set(codes).count == 3)
        for code in codes { #expect(code.range(of: "^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$", options: .regularExpression) != nil, "\(code)") }
        let reader = try h.createAccount(), other = try h.createAccount()
        #expect(try !h.entitledIssueIds(reader, publication: "monthly").contains("2026-01"))
        let redeemed = try redeem(h, codes[0].lowercased().replacingOccurrences(of: "-", with: " "), for: reader)
        #expect(redeemed.status == 200, "typed in lower case with spaces: \(redeemed.text)")
        #expect(try h.entitledIssueIds(reader, publication: "monthly").contains("2026-01"))
        for who in [reader, other] {
            let again = try redeem(h, codes[0], for: who)
            #expect(again.status == 404 && again.errorCode == "code_not_found")
        }
        #expect(try !h.entitledIssueIds(other, publication: "monthly").contains("2026-01"))
        // The batch lists its codes' use, never the codes.
        let listed = try h.client.get("/v1/publications/monthly/codes/\(batchId)", as: H.adminKey)
        #expect(listed.json["redeemed"] as? Int == 1 && listed.json["count"] as? Int == 3)
        #expect(!listed.text.contains(codes[0]) && !listed.text.contains(codes[1]))
        // A withdrawn batch's unused codes stop working.
        #expect(try h.client.delete("/v1/publications/monthly/codes/\(batchId)", as: H.adminKey).status == 200)
        #expect(try redeem(h, codes[1], for: other).status == 404)
    }

    @Test func aDurationCodeGrantsFromRedemption() throws {
        let h = try H()
        try h.seedCatalog()
        let (_, codes) = try batch(h, #"{"count":1,"duration":"P1Y"}"#)
        let reader = try h.createAccount()
        #expect(try redeem(h, codes[0], for: reader).status == 200)
        let entitlements = try h.client.get("/v1/accounts/\(reader.id)/entitlements", as: reader.token)
        let grant = (entitlements.json["grants"] as? [[String: Any]])?.first
        #expect(grant?["source"] as? String == "code" && grant?["end"] is String)
        #expect(try h.entitledIssueIds(reader, publication: "monthly").contains("2026-02"), "the issue current at redemption (E13)")
    }

    @Test func badBatchesAreRefusedAndFailuresAreRateLimited() throws {
        let h = try H()
        try h.seedCatalog()
        for body in [#"{"count":0,"duration":"P1M"}"#, #"{"count":2}"#, #"{"count":2,"duration":"P1M","issueId":"2026-01"}"#,
                     #"{"count":2,"issueId":"1999-01"}"#, #"{"count":2,"duration":"a month"}"#,
                     #"{"count":2,"duration":"P1M","expiresAt":"2000-01-01T00:00:00Z"}"#] {
            #expect(try h.client.post("/v1/publications/monthly/codes", as: H.adminKey, json: body).status == 400, "\(body)")
        }
        let reader = try h.createAccount()
        #expect(try h.client.post("/v1/publications/monthly/codes", as: reader.token, json: #"{"count":1,"duration":"P1M"}"#).status == 403)
        var statuses: [Int] = []
        for _ in 0..<12 {
            statuses.append(try redeem(h, Self.unknownCode, for: reader).status)
        }
        #expect(statuses.prefix(10).allSatisfy { $0 == 404 })
        let limited = try redeem(h, Self.unknownCode, for: reader)
        #expect(limited.status == 429 && limited.errorCode == "rate_limited")
    }

    /// Over a socket every request has a source address: a reader's own failures are limited by
    /// account and by address, but a publisher's backend redeeming with its service key for many
    /// readers from one address is limited per account only.
    @Test func aServiceKeysFailuresCountPerAccountNotPerAddress() throws {
        let h = try H(transport: .socket)
        try h.seedCatalog()
        let service = try h.createKey(#"{"role":"service"}"#)
        /// Four failed redemptions for each of four new readers, each with the secret `secret` picks.
        func failuresOfFourReaders(as secret: ((id: String, token: String)) -> String) throws -> [Int] {
            var statuses: [Int] = []
            for _ in 0..<4 {
                let reader = try h.createAccount()
                for _ in 0..<4 { statuses.append(try redeem(h, Self.unknownCode, for: reader, as: secret(reader)).status) }
            }
            return statuses
        }
        let statuses = try failuresOfFourReaders { _ in service.secret }
        #expect(statuses.count == 16 && statuses.allSatisfy { $0 == 404 }, "\(statuses)")
        // The same sixteen failures by readers' own tokens from one address are limited at ten.
        let own = try failuresOfFourReaders { $0.token }
        #expect(own.filter { $0 == 429 }.count == 6, "\(own)")
    }

    /// E22: single use holds when two readers redeem one code at the same moment (the store's
    /// conditional update inside the unit of work, not the route, decides).
    @Test func oneCodeRedeemedByEightReadersAtOnceIsTakenOnce() async throws {
        let h = try H()
        try h.seedCatalog()
        let (_, codes) = try batch(h, #"{"count":1,"issueId":"2026-01"}"#)
        let readers = try (0..<8).map { _ in try h.createAccount() }
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for reader in readers {
                group.addTask {
                    try redeem(h, codes[0], for: reader).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
        #expect(statuses.filter { $0 == 404 }.count == 7, "\(statuses)")
        #expect(try readers.filter { try h.entitledIssueIds($0, publication: "monthly").contains("2026-01") }.count == 1)
    }

    /// A one-issue code's grant names its issue in the entitlements answer, so an app does not
    /// mistake it for open-ended access to the whole publication.
    @Test func aOneIssueCodesGrantNamesItsIssue() throws {
        let h = try H()
        try h.seedCatalog()
        let (_, codes) = try batch(h, #"{"count":1,"issueId":"2026-01"}"#)
        let reader = try h.createAccount()
        #expect(try redeem(h, codes[0], for: reader).status == 200)
        let entitlements = try h.client.get("/v1/accounts/\(reader.id)/entitlements", as: reader.token)
        let grant = try #require((entitlements.json["grants"] as? [[String: Any]])?.first)
        let issue = try #require(grant["issue"] as? [String: Any])
        #expect(issue["publicationId"] as? String == "monthly" && issue["issueId"] as? String == "2026-01")
    }
}
