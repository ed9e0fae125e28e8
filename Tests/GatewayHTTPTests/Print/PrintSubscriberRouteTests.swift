import Entitle
import Foundation
import GatewayConfiguration
import Testing
import Wire
import GatewayTesting

/// Print subscribers through the API (E29): lists, claims, renewal and end by later lists, a second
/// account under both E4 policies, and failed claims limited.
@Suite struct PrintSubscriberRouteTests {
    static let header = "verification,end,customerNumber,start"

    func putList(_ h: H, _ text: String, method: String = "PUT", type: String = "text/csv",
                 as secret: String = H.adminKey) throws -> APIResponse {
        try h.client.send(method, "/v1/publications/monthly/subscribers", as: secret, body: Array(text.utf8), contentType: type)
    }

    func claim(_ h: H, _ reader: (id: String, token: String), number: String, verification: String,
               publication: String = "monthly") throws -> APIResponse {
        try h.client.post("/v1/accounts/\(reader.id)/claims", as: reader.token, json: """
            {"publicationId":"\(publication)","customerNumber":"\(number)","verification":"\(verification)"}
            """)
    }

    func printGrants(_ h: H, _ reader: (id: String, token: String)) throws -> [[String: Any]] {
        let entitlements = try h.client.get("/v1/accounts/\(reader.id)/entitlements", as: reader.token)
        return (entitlements.json["grants"] as? [[String: Any]] ?? []).filter { $0["source"] as? String == "print" }
    }

    func claimedBy(_ h: H, _ number: String) throws -> String? {
        try h.client.get("/v1/publications/monthly/subscribers/\(number)", as: H.adminKey).json["claimedBy"] as? String
    }

    @Test func e29AClaimTurnsAListedSubscriberIntoAPrintGrant() throws {
        let h = try H()
        try h.seedCatalog()
        let list = try putList(h, "\(Self.header)\r\n\"AB1 2CD\",,C-1,2025-12-01T00:00:00Z\r\nzz,2026-02-15T00:00:00Z,C-2,not-a-date\r\n"
                                  + "\"x, \"\"quoted\"\"\",2026-02-15T00:00:00Z,C-3,2025-12-01T00:00:00Z")
        #expect(list.status == 200, "\(list.text)")
        #expect(list.json["added"] as? Int == 2 && list.json["changed"] as? Int == 0)
        let rejected = list.json["rejected"] as? [[String: Any]]
        #expect(rejected?.count == 1 && rejected?.first?["line"] as? Int == 3, "the header is line 1: \(list.text)")
        let reader = try h.createAccount()
        #expect(try !h.entitledIssueIds(reader, publication: "monthly").contains("2026-01"))
        // E29: white space removed and case folded before comparing.
        let claimed = try claim(h, reader, number: "C-1", verification: " ab12cd")
        #expect(claimed.status == 200, "\(claimed.text)")
        let grant = try #require(try printGrants(h, reader).first)
        #expect(grant["externalId"] as? String == "monthly:C-1" && grant["start"] as? String == "2025-12-01T00:00:00.000Z")
        #expect(try h.entitledIssueIds(reader, publication: "monthly").contains("2026-01"))
        #expect(try claim(h, reader, number: "C-1", verification: "AB1 2CD").status == 200, "claiming again changes nothing")
        #expect(try printGrants(h, reader).count == 1)
        // Support sees the claim, never the verification value.
        let row = try h.client.get("/v1/publications/monthly/subscribers/C-1", as: H.adminKey)
        #expect(row.status == 200 && row.json["claimedBy"] as? String == reader.id)
        #expect(!row.text.lowercased().contains("ab1") && !row.text.contains("verification"))
        #expect(try h.client.get("/v1/publications/monthly/subscribers/C-9", as: H.adminKey).status == 404)
        #expect(try h.client.get("/v1/publications/monthly/subscribers/C-1", as: reader.token).status == 403)
        let found = try h.client.get("/v1/lookup?publicationId=monthly&customerNumber=C-1", as: H.adminKey)
        #expect(found.status == 200 && found.json["accountId"] as? String == reader.id)
        let history = try h.client.get("/v1/accounts/\(reader.id)/history", as: H.adminKey)
        #expect(history.objects("events").contains { $0["source"] as? String == "print" && $0["kind"] as? String == "grantGiven" })
        // A quoted field with a comma and doubled quotes is one value (RFC 4180).
        #expect(try claim(h, try h.createAccount(), number: "C-3", verification: #"X,\"QUOTED\""#).status == 200,
                "the value x, \"quoted\" sent JSON-escaped")
    }

    @Test func e29ALaterListRenewsAndAWholeListEndsWhomItLeavesOut() throws {
        let h = try H()
        try h.seedCatalog()
        let lapsing = "{\"customerNumber\":\"C-1\",\"verification\":\"12345\",\"start\":\"2025-12-01T00:00:00Z\",\"end\":\"2026-02-15T00:00:00Z\"}\n"
        #expect(try putList(h, lapsing, type: "application/x-ndjson").json["added"] as? Int == 1)
        let reader = try h.createAccount()
        #expect(try claim(h, reader, number: "C-1", verification: "12345").status == 200)
        h.clock.set(Instant(rfc3339: "2026-04-02T00:00:00Z")!)
        #expect(try !h.entitledIssueIds(reader, publication: "monthly").contains("2026-04"), "published after the subscription ended")
        // E29: a later list that extends the end extends the grant.
        let renewed = try putList(h, "{\"customerNumber\":\"C-1\",\"verification\":\"12345\",\"start\":\"2025-12-01T00:00:00Z\",\"end\":null}\n",
                                  method: "PATCH", type: "application/x-ndjson")
        #expect(renewed.json["changed"] as? Int == 1, "\(renewed.text)")
        #expect(try h.entitledIssueIds(reader, publication: "monthly").contains("2026-04"))
        #expect(try printGrants(h, reader).first?["end"] is NSNull)
        // Sending the same list again changes nothing.
        let again = try putList(h, "customerNumber,verification,start\nC-1,12345,2025-12-01T00:00:00Z\n")
        #expect(again.json["unchanged"] as? Int == 1 && again.json["changed"] as? Int == 0, "\(again.text)")
        // E29: a whole list without the subscriber ends it at the list's time.
        h.clock.set(Instant(rfc3339: "2026-05-01T00:00:00Z")!)
        let ended = try putList(h, "customerNumber,verification,start\nC-2,999,2026-04-01T00:00:00Z\n")
        #expect(ended.json["ended"] as? Int == 1 && ended.json["added"] as? Int == 1, "\(ended.text)")
        #expect(try printGrants(h, reader).first?["end"] as? String == "2026-05-01T00:00:00.000Z")
        #expect(try h.entitledIssueIds(reader, publication: "monthly").contains("2026-04"), "what was served stays served")
        // E29: a list moving the end before its own time moves it to that time, no earlier.
        h.clock.set(Instant(rfc3339: "2026-05-10T00:00:00Z")!)
        let earlier = try putList(h, "customerNumber,verification,start,end\nC-2,999,2026-04-01T00:00:00Z,2026-04-20T00:00:00Z\n",
                                  method: "PATCH")
        #expect(earlier.json["ended"] as? Int == 1, "\(earlier.text)")
        #expect(try h.client.get("/v1/publications/monthly/subscribers/C-2", as: H.adminKey).json["end"] as? String
                == "2026-05-10T00:00:00.000Z")
        // The console's list of lists: newest first, with their counts.
        let imports = try h.client.get("/v1/subscriber-imports", as: H.adminKey).objects("imports")
        #expect(imports.count == 5 && imports.first?["kind"] as? String == "changes" && imports.first?["ended"] as? Int == 1)
        #expect(imports.allSatisfy { $0["finishedAt"] is String && $0["refusal"] is NSNull })
        #expect(try h.client.get("/v1/subscriber-imports", as: reader.token).status == 403)
    }

    @Test func e29AListRefusedPartWayIsRecordedAsEndedWithWhy() throws {
        let h = try H()
        try h.seedCatalog()
        let refused = try putList(h, "customerNumber,start\nC-1,2026-01-01T00:00:00Z\n")
        #expect(refused.status == 400)
        let imports = try h.client.get("/v1/subscriber-imports", as: H.adminKey).objects("imports")
        #expect(imports.count == 1)
        #expect(imports.first?["finishedAt"] is String, "not shown as running for ever")
        let refusal = try #require(imports.first?["refusal"] as? String)
        #expect(refused.text.contains(refusal), "\(refusal) / \(refused.text)")
    }

    @Test func e29ASecondAccountTakesTheClaimUnderTransferAndIsRefusedUnderKeep() throws {
        for policy in [OwnershipPolicy.transfer, .keep] {
            let h = try H(configure: { $0.transferPolicy = policy })
            try h.seedCatalog()
            _ = try putList(h, "customerNumber,verification,start\nC-1,SW1A 1AA,2025-12-01T00:00:00Z\n")
            let first = try h.createAccount(), second = try h.createAccount()
            #expect(try claim(h, first, number: "C-1", verification: "sw1a1aa").status == 200)
            let taken = try claim(h, second, number: "C-1", verification: "sw1a1aa")
            switch policy {
            case .transfer:
                #expect(taken.status == 200)
                #expect(try claimedBy(h, "C-1") == second.id)
                #expect(try printGrants(h, first).isEmpty && !(try h.entitledIssueIds(first, publication: "monthly").contains("2026-01")))
                #expect(try h.entitledIssueIds(second, publication: "monthly").contains("2026-01"))
            case .keep:
                #expect(taken.status == 409 && taken.errorCode == "owned_by_other_account")
                #expect(try claimedBy(h, "C-1") == first.id)
                #expect(try !h.entitledIssueIds(second, publication: "monthly").contains("2026-01"))
            }
        }
    }

    @Test func e29WrongVerificationsAreIndistinguishableAndRateLimited() throws {
        let h = try H()
        try h.seedCatalog()
        _ = try putList(h, "customerNumber,verification,start\nC-1,right,2025-12-01T00:00:00Z\n")
        let reader = try h.createAccount()
        let wrong = try claim(h, reader, number: "C-1", verification: "wrong")
        let unknown = try claim(h, reader, number: "C-404", verification: "right")
        let noPublication = try claim(h, reader, number: "C-1", verification: "right", publication: "nowhere")
        #expect(wrong.status == 404 && wrong.errorCode == "subscriber_not_found")
        #expect(wrong.body == unknown.body && unknown.body == noPublication.body)
        for _ in 0..<7 { #expect(try claim(h, reader, number: "C-1", verification: "wrong").status == 404) }
        let limited = try claim(h, reader, number: "C-1", verification: "right")
        #expect(limited.status == 429 && limited.errorCode == "rate_limited", "10 failures, then even the right value waits")
        let retryAfter = try #require(limited.header("Retry-After").flatMap(Int.init))
        #expect(retryAfter > 0 && retryAfter <= 15 * 60)
        h.clock.advance(seconds: 15 * 60)
        #expect(try claim(h, reader, number: "C-1", verification: "right").status == 200, "the window passed")
    }

    @Test func e29BadListsAreRefusedLineByLineOrWhole() throws {
        let h = try H()
        try h.seedCatalog()
        #expect(try putList(h, "a,b\n", type: "application/json").status == 415)
        let header = try putList(h, "customerNumber,postcode,start\nC-1,x,2025-12-01T00:00:00Z\n")
        #expect(header.status == 400, "\(header.text)")
        let lines = try putList(h, """
            customerNumber,verification,start,end
            C-1,x,2025-12-01T00:00:00Z,
            C-1,y,2025-12-01T00:00:00Z,
            C-2,x,2025-12-01T00:00:00Z,2025-11-01T00:00:00Z
            C-3,x"y,2025-12-01T00:00:00Z,
            C-4,x,2025-12-01T00:00:00Z
            "C-5,x,2025-12-01T00:00:00Z,

            C-6,x,2025-12-01T00:00:00Z,
            """)
        #expect(lines.status == 200, "\(lines.text)")
        let rejected = (lines.json["rejected"] as? [[String: Any]] ?? []).compactMap { $0["line"] as? Int }
        #expect(rejected == [3, 4, 5, 6, 7], "a duplicate, end before start, a stray quote, a short line, an open quote: \(lines.text)")
        #expect(lines.json["added"] as? Int == 1, "C-1 (C-6 is inside the open quote that swallows the rest)")
        // A rejected line rejects that line only: C-2's bad end does not end the C-1 kept before.
        let again = try putList(h, "customerNumber,verification,start,end\nC-2,x,2025-12-01T00:00:00Z,2025-11-01T00:00:00Z\n")
        #expect(again.status == 200 && again.json["ended"] as? Int == 0, "a list with a rejected line ends nobody: \(again.text)")
        let whole = try putList(h, "customerNumber,verification,start\nC-9,x,2025-12-01T00:00:00Z\n")
        #expect(whole.json["ended"] as? Int == 1, "C-1, missing from a clean whole list, ends: \(whole.text)")
        let reader = try h.createAccount()
        #expect(try h.client.send("PUT", "/v1/publications/monthly/subscribers", as: reader.token, body: Array("x".utf8),
                                  contentType: "text/csv").status == 403)
    }

    @Test func e29AListOverASocketIsReadFromTheServersFileWithEitherFraming() throws {
        let h = try H(transport: .socket)
        defer { h.stop() }
        try h.seedCatalog()
        // Three batches of rows; few enough that a loaded machine answers within the client's read timeout.
        let rows = (1...3000).map { "C-\($0),pc \($0 % 97),2026-01-01T00:00:00Z" }
        let csv = Array(("customerNumber,verification,start\n" + rows.joined(separator: "\n") + "\n").utf8)
        let put = try h.client.send("PUT", "/v1/publications/monthly/subscribers", as: H.adminKey, body: csv, contentType: "text/csv")
        #expect(put.status == 200 && put.json["added"] as? Int == 3000, "\(put.text.prefix(300))")
        var chunked = Array("PATCH /v1/publications/monthly/subscribers HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer \(H.adminKey)\r\nContent-Type: text/csv\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        let patch = Array("customerNumber,verification,start,end\nC-1,pc 1,2026-01-01T00:00:00Z,2026-02-01T00:00:00Z\nC-2,pc 2,2026-01-01T00:00:00Z,\n".utf8)
        for start in stride(from: 0, to: patch.count, by: 10) {
            let piece = patch[start..<min(patch.count, start + 10)]
            chunked += Array("\(String(piece.count, radix: 16))\r\n".utf8) + piece + Array("\r\n".utf8)
        }
        chunked += Array("0\r\n\r\n".utf8)
        let changed = try h.client.exchange(chunked)
        #expect(changed.status == 200 && changed.json["ended"] as? Int == 1 && changed.json["unchanged"] as? Int == 1, "\(changed.text)")
    }
}
