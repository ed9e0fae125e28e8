import AppStoreSimulator
import Entitle
import Foundation
@testable import GatewayConfiguration
import Testing
import GatewayTesting

/// `GET /v1/accounts/{accountId}/history` (http-api.md, Support) through the in-process
/// client: the gateway's App Store is the simulator (verifyReceipt over HTTP, V1 notifications
/// with its shared secret), so every fact arrives by the route a reader app or Apple would use.
@Suite struct HistoryRouteTests {
    /// A harness whose verifyReceipt is the simulator playing `FlowFixtures.script`.
    final class World: @unchecked Sendable {
        let simulator: AppStoreSimulator
        let apple: AppStoreSimulatorServer
        let h: H

        init(policy: OwnershipPolicy = .transfer) throws {
            let authority = try TestCertificateAuthority(options: .init(issuedAt: FlowFixtures.at("2025-06-01T00:00:00Z")))
            simulator = AppStoreSimulator(script: FlowFixtures.script, authority: authority, clock: { H.start })
            apple = try AppStoreSimulatorServer(simulator: simulator).start()
            let (production, sandbox) = (apple.productionURL.absoluteString, apple.sandboxURL.absoluteString)
            h = try H(configure: {
                $0.appStoreProductionURL = production
                $0.appStoreSandboxURL = sandbox
                $0.appStoreSharedSecret = FlowFixtures.sharedSecret
                $0.bundleId = FlowFixtures.bundleId
                $0.transferPolicy = policy
            })
            try h.seedCatalog()
        }

        deinit { h.stop(); apple.stop() }

        func sendReceipt(_ reader: (id: String, token: String)) throws -> APIResponse {
            try h.client.post("/v1/accounts/\(reader.id)/receipts", as: reader.token,
                              json: #"{"receiptData":"\#(FlowFixtures.production)"}"#)
        }

        func notifyV1(_ type: String) throws -> APIResponse {
            let body = try simulator.notificationV1(FlowFixtures.production, type: type)
            return try h.client.post("/v1/appstore/notifications", json: String(decoding: body, as: UTF8.self))
        }

        /// As support staff see it (admin key); `asReader`: with the account's own token.
        func history(_ account: (id: String, token: String), query: String = "", asReader: Bool = false) throws -> [[String: Any]] {
            let answer = try h.client.get("/v1/accounts/\(account.id)/history\(query)", as: asReader ? account.token : H.adminKey)
            #expect(answer.status == 200, "\(answer.text)")
            return answer.objects("events")
        }
    }

    static func kinds(_ events: [[String: Any]]) -> [String] { events.map { $0["kind"] as? String ?? "?" } }

    @Test func aReceiptARenewalAndARefundAreRecordedOnceEachWithTheirSources() throws {
        let w = try World()
        let reader = try w.h.createAccount()
        #expect(try w.sendReceipt(reader).status == 200)
        let first = try w.history(reader)
        #expect(Self.kinds(first) == ["ownershipBound", "transactionSeen", "transactionSeen", "transactionSeen", "renewalInfoChanged"])
        #expect(first.allSatisfy { $0["source"] as? String == "receipt" && $0["at"] as? String == "2026-03-01T00:00:00.000Z" })
        #expect(first.dropFirst().prefix(3).map { $0["transactionId"] as? String } == ["10000", "10001", "10002"])
        #expect(first[1]["expiresDate"] as? String == "2026-02-10T00:00:00.000Z")
        // E1: the same receipt again, later (a newer observation of the same facts), records nothing.
        w.h.clock.advance(seconds: 3600)
        #expect(try w.sendReceipt(reader).status == 200)
        #expect(try w.history(reader).count == first.count)
        // A renewal by V1 notification, then a refund.
        try w.simulator.addTransaction(FlowFixtures.renewal, to: FlowFixtures.production)
        #expect(try w.notifyV1("DID_RENEW").status == 200)
        try w.simulator.refund(transactionId: "10002", in: FlowFixtures.production, at: FlowFixtures.at("2026-03-18T00:00:00Z"))
        #expect(try w.notifyV1("REFUND").status == 200)
        let all = try w.history(reader)
        let added = Array(all.dropFirst(first.count))
        #expect(Self.kinds(added) == ["transactionSeen", "refund"])
        #expect(added.allSatisfy { $0["source"] as? String == "notificationV1" })
        #expect(added[0]["transactionId"] as? String == "10003")
        #expect(added[1]["transactionId"] as? String == "10002" && added[1]["revocationDate"] as? String == "2026-03-18T00:00:00.000Z")
    }

    /// The explanation's evidence links the history behind it.
    @Test func anExplanationsEvidenceCarriesTheHistoryOfItsTransaction() throws {
        let w = try World()
        let reader = try w.h.createAccount()
        #expect(try w.sendReceipt(reader).status == 200)
        let path = "/v1/accounts/\(reader.id)/publications/monthly/issues/2026-01/explanation"
        let evidence = try #require(try w.h.client.get(path, as: reader.token).json["evidence"] as? [String: Any])
        #expect((evidence["transaction"] as? [String: Any])?["transactionId"] as? String == "10000")
        let history = try #require(evidence["history"] as? [[String: Any]])
        #expect(Self.kinds(history) == ["ownershipBound", "transactionSeen"])
        #expect(history.last?["transactionId"] as? String == "10000" && history.last?["source"] as? String == "receipt")
    }

    @Test func aTransferIsInBothHistoriesAndARefusedOneInNeither() throws {
        let w = try World()
        let first = try w.h.createAccount(), second = try w.h.createAccount()
        #expect(try w.sendReceipt(first).status == 200)
        #expect(try w.sendReceipt(second).status == 200)
        let taker = try w.history(second)
        #expect(Self.kinds(taker) == ["ownershipBound"])
        #expect(taker[0]["fromAccountId"] as? String == first.id && taker[0]["originalTransactionId"] as? String == "10000")
        let loser = try w.history(first)
        #expect(Self.kinds(loser).last == "ownershipTransferredAway")
        #expect(loser.last?["toAccountId"] as? String == second.id)
        // A reader's own token never learns the other reader's account id.
        #expect(try w.history(second, asReader: true).first?["fromAccountId"] == nil)
        #expect(try w.history(first, asReader: true).last?["toAccountId"] == nil)
        #expect(Self.kinds(try w.history(first, asReader: true)) == Self.kinds(loser))

        let kept = try World(policy: .keep)
        let owner = try kept.h.createAccount(), latecomer = try kept.h.createAccount()
        #expect(try kept.sendReceipt(owner).status == 200)
        let before = try kept.history(owner)
        #expect(try kept.sendReceipt(latecomer).status == 409, "a failed write")
        #expect(try kept.history(latecomer).isEmpty)
        #expect(try kept.history(owner).count == before.count)
    }

    @Test func grantsGivenAndRevokedAndACodeRedeemed() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        let body = #"{"source":"print","externalId":"sub-42","publications":["monthly"],"start":"2026-01-10T00:00:00Z","note":"<img src=x>"}"#
        let given = try h.client.post("/v1/accounts/\(reader.id)/grants", as: H.adminKey, json: body)
        let grantId = try #require(given.json["grantId"] as? String)
        #expect(try h.client.post("/v1/accounts/\(reader.id)/grants", as: H.adminKey, json: body).status == 200)
        #expect(try h.client.delete("/v1/accounts/\(reader.id)/grants/\(grantId)", as: H.adminKey).status == 200)
        let made = try h.client.post("/v1/publications/monthly/codes", as: H.adminKey, json: #"{"count":1,"issueId":"2026-01"}"#)
        let code = try #require((made.json["codes"] as? [String])?.first)
        #expect(try h.client.post("/v1/accounts/\(reader.id)/codes/redeem", as: reader.token, json: #"{"code":"\#(code)"}"#).status == 200)
        let events = try h.client.get("/v1/accounts/\(reader.id)/history", as: H.adminKey).objects("events")
        #expect(Self.kinds(events) == ["grantGiven", "grantRevoked", "codeRedeemed"])
        #expect(events.map { $0["source"] as? String } == ["grant", "grant", "code"])
        #expect(events[0]["grantId"] as? String == grantId && events[0]["grantSource"] as? String == "print")
        #expect(events[0]["note"] as? String == "<img src=x>" && events[0]["end"] is NSNull)
        #expect(events[1]["revokedAt"] is String)
        #expect(events[0]["by"] as? String == "admin" && events[1]["by"] as? String == "admin")
        // The reader sees the same events without the publisher's note or who acted.
        let own = try h.client.get("/v1/accounts/\(reader.id)/history", as: reader.token).objects("events")
        #expect(Self.kinds(own) == Self.kinds(events))
        #expect(own.allSatisfy { $0["note"] == nil && $0["by"] == nil } && own[0]["grantId"] as? String == grantId)
        #expect(events[2]["issueId"] as? String == "2026-01" && events[2]["batchId"] as? String == made.json["batchId"] as? String)
        // The explanation of the code's issue names its grant and that grant's history.
        let explained = try h.client.get("/v1/accounts/\(reader.id)/publications/monthly/issues/2026-01/explanation", as: reader.token)
        let evidence = try #require(explained.json["evidence"] as? [String: Any])
        let grant = try #require(evidence["grant"] as? [String: Any])
        #expect(grant["source"] as? String == "code")
        #expect(Self.kinds(evidence["history"] as? [[String: Any]] ?? []) == ["codeRedeemed"])
    }

    @Test func pagesAreOldestFirstWithACursorAndRefusalsAreTheUsualOnes() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount(), other = try h.createAccount()
        let service = try h.createKey(#"{"role":"service"}"#)
        for i in 0..<5 {
            let body = #"{"source":"comp","externalId":"c\#(i)","publications":["monthly"],"start":"2026-01-10T00:00:00Z"}"#
            #expect(try h.client.post("/v1/accounts/\(reader.id)/grants", as: service.secret, json: body).status == 201)
        }
        let byService = try h.client.get("/v1/accounts/\(reader.id)/history?limit=1", as: service.secret).objects("events")
        #expect(byService.first?["by"] as? String == "service:\(service.id)")
        var seen: [String] = []
        var path = "/v1/accounts/\(reader.id)/history?limit=2"
        for _ in 0..<3 {
            let page = try h.client.get(path, as: reader.token)
            seen += page.objects("events").compactMap { $0["externalId"] as? String }
            guard let next = page.json["next"] as? String else { break }
            path = "/v1/accounts/\(reader.id)/history?limit=2&after=\(next)"
        }
        #expect(seen == ["c0", "c1", "c2", "c3", "c4"])
        let whole = try h.client.get("/v1/accounts/\(reader.id)/history", as: H.adminKey)
        #expect(whole.objects("events").count == 5 && whole.json["next"] == nil)
        for query in ["limit=0", "limit=501", "limit=x", "after=nope", "after=aDA", "after=aA", "limit=1&limit=2"] {
            let answer = try h.client.get("/v1/accounts/\(reader.id)/history?\(query)", as: reader.token)
            #expect(answer.status == 400 && answer.hasErrorShape, "\(query)")
        }
        #expect(try h.client.get("/v1/accounts/\(reader.id)/history", as: other.token).status == 403)
        #expect(try h.client.get("/v1/accounts/\(reader.id)/history").status == 401)
        #expect(try h.client.get("/v1/accounts/acct-nobody/history", as: H.adminKey).status == 404)
        #expect(try h.client.get("/v1/accounts/\(other.id)/history", as: other.token).objects("events").isEmpty)
    }
}
