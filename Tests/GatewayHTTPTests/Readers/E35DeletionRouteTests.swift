import Entitle
import Foundation
import GatewayCore
import GatewayStore
import GatewayTesting
import IssueCatalog
import Testing
import Wire

/// readers.md E35 through the API: deletion answers the subscriptions that will still bill, then
/// the id is 404 to everyone and its token 401; the export is one attachment with every key and
/// no secret.
@Suite struct E35DeletionRouteTests {
    static let grantBody = #"{"source":"crm","externalId":"c-1","publications":["monthly"],"start":"2026-01-10T00:00:00Z","note":"asked by phone"}"#
    static let apnsToken = String(repeating: "ab", count: 32)

    /// A reader with an auto-renewing App Store subscription (until 2026-03-15; the harness's
    /// clock is 2026-03-01), a lapsed Stripe one, a device and a grant.
    func reader(_ h: GatewayHarness) throws -> (id: String, token: String) {
        try h.seedCatalog()
        let reader = try h.createAccount()
        try h.subscribe(reader.id)
        let renewal = RenewalInfo(environment: .production, originalTransactionId: "sub-1", autoRenewStatus: true, source: .receipt)
        let lapsed = Transaction(store: .stripe, environment: .production, transactionId: "in_1", originalTransactionId: "sub_stripe",
                                 productId: "price_monthly", purchaseDate: Instant(rfc3339: "2026-01-01T00:00:00Z")!,
                                 expiresDate: Instant(rfc3339: "2026-02-01T00:00:00Z")!, source: .stripeEvent)
        try h.store(VerifiedFacts(transactions: [lapsed],
                                  renewals: [renewal, RenewalInfo(store: .stripe, environment: .production,
                                                                  originalTransactionId: "sub_stripe", autoRenewStatus: true,
                                                                  source: .stripeEvent)]), for: reader.id)
        #expect(try h.client.post("/v1/accounts/\(reader.id)/devices", as: reader.token,
                                  json: #"{"apnsToken":"\#(Self.apnsToken)"}"#).status == 201)
        #expect(try h.client.post("/v1/accounts/\(reader.id)/grants", as: H.adminKey, json: Self.grantBody).status == 201)
        return reader
    }

    @Test(arguments: HarnessBackend.all)
    func e35DeletionAnswersWhatStillBillsThenTheAccountIsGoneForEveryone(_ backend: HarnessBackend) throws {
        let backed = try backend.harness()
        let h = backed.harness
        let reader = try reader(h)
        #expect(try h.client.get("/v1/accounts/\(reader.id)/issues", as: reader.token).status == 200, "its token resolved once")

        let deleted = try h.client.delete("/v1/accounts/\(reader.id)", as: reader.token)
        #expect(deleted.status == 200, "\(deleted.text)")
        #expect(deleted.json["deleted"] as? Bool == true)
        let billing = deleted.objects("stillBilling")
        #expect(billing.count == 1, "the lapsed Stripe subscription does not bill: \(deleted.text)")
        #expect(billing.first?["store"] as? String == "appStore")
        #expect(billing.first?["productId"] as? String == "monthly.1m")
        #expect(billing.first?["expiresAt"] as? String == "2026-03-15T00:00:00.000Z")
        #expect(billing.first?["manageUrl"] as? String == "https://apps.apple.com/account/subscriptions")

        let token = try h.client.get("/v1/accounts/\(reader.id)/issues", as: reader.token)
        #expect(token.status == 401, "its token answers 401 at once")
        for path in ["/v1/accounts/\(reader.id)/issues", "/v1/accounts/\(reader.id)/export", "/v1/accounts/\(reader.id)/history"] {
            let answer = try h.client.get(path, as: H.adminKey)
            #expect(answer.status == 404 && answer.errorCode == "not_found", "\(path): \(answer.text)")
        }
        let again = try h.client.delete("/v1/accounts/\(reader.id)", as: H.adminKey)
        #expect(again.status == 404 && again.errorCode == "not_found", "deleting again")
        #expect(try h.client.get("/v1/lookup?originalTransactionId=sub-1", as: H.adminKey).status == 404, "the purchase is nobody's")
    }

    @Test(arguments: HarnessBackend.all)
    func e35AnotherAccountPostingTheSamePurchaseTakesItEvenUnderKeep(_ backend: HarnessBackend) throws {
        let backed = try backend.harness { $0.transferPolicy = .keep }
        let h = backed.harness
        try h.seedCatalog()
        let first = try h.createAccount(), second = try h.createAccount()
        try h.subscribe(first.id)
        #expect(throws: HarnessError.self, "keep refuses while the first account holds it") { try h.subscribe(second.id) }
        #expect(try h.client.delete("/v1/accounts/\(first.id)", as: H.adminKey).status == 200)
        try h.subscribe(second.id)
        let lookup = try h.client.get("/v1/lookup?originalTransactionId=sub-1", as: H.adminKey)
        #expect(lookup.json["accountId"] as? String == second.id, "\(lookup.text)")
    }

    @Test func e35OnlyTheAccountItselfAServiceKeyOrAdminMayDeleteOrExport() throws {
        let h = try GatewayHarness()
        try h.seedCatalog()
        let reader = try h.createAccount(), other = try h.createAccount()
        let editor = try h.createKey(#"{"role":"editor","publications":["monthly"]}"#)
        let service = try h.createKey(#"{"role":"service"}"#)
        for secret in [other.token, editor.secret] {
            #expect(try h.client.delete("/v1/accounts/\(reader.id)", as: secret).status == 403)
            #expect(try h.client.get("/v1/accounts/\(reader.id)/export", as: secret).status == 403)
        }
        #expect(try h.client.delete("/v1/accounts/\(reader.id)").status == 401)
        #expect(try h.client.get("/v1/accounts/\(reader.id)/export", as: service.secret).status == 200)
        #expect(try h.client.delete("/v1/accounts/\(reader.id)", as: service.secret).status == 200)
        #expect(try h.client.delete("/v1/accounts/acct-never", as: H.adminKey).status == 404)
    }

    @Test(arguments: HarnessBackend.all)
    func e35TheExportIsOneAttachmentWithEveryKeyAndNoSecret(_ backend: HarnessBackend) throws {
        let backed = try backend.harness()
        let h = backed.harness
        let reader = try reader(h)
        let export = try h.client.get("/v1/accounts/\(reader.id)/export", as: reader.token)
        #expect(export.status == 200)
        #expect(export.header("Content-Disposition") == "attachment; filename=\"account-\(reader.id).json\"")
        #expect(Set(export.json.keys) == ["account", "identities", "sessions", "devices", "transactions", "renewalInfo", "grants",
                                          "printClaims", "institutions", "history", "downloads"])
        #expect((export.json["account"] as? [String: Any])?["accountId"] as? String == reader.id)
        #expect(export.objects("devices").map { $0["apnsToken"] as? String } == [Self.apnsToken])
        #expect(Set(export.objects("transactions").compactMap { $0["transactionId"] as? String }) == ["sub-1", "in_1"])
        #expect(export.objects("renewalInfo").count == 2)
        #expect(export.objects("grants").map { $0["externalId"] as? String } == ["c-1"])
        #expect(export.objects("grants").first?["note"] == nil, "the publisher's note is not the reader's to read")
        #expect(!export.objects("history").isEmpty)
        let sessions = try h.runtime.core.store.read { tx throws(StoreError) in
            try tx.liveSessions(ofAccount: reader.id, idleCutoff: Instant(millisecondsSinceEpoch: 0))
        }
        let tokenHash = try #require(sessions.first).tokenHash
        #expect(!export.text.contains(reader.token) && !export.text.contains(tokenHash), "no secret, no hash of one")
        #expect(export.objects("sessions").count == 1)

        let staff = try h.client.get("/v1/accounts/\(reader.id)/export", as: H.adminKey)
        #expect(staff.objects("grants").first?["note"] as? String == "asked by phone")
    }
}
