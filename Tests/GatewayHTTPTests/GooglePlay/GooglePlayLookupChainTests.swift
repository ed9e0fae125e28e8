import Foundation
import GooglePlaySimulator
import Testing
import GatewayTesting

/// http-api.md, Support: `GET /v1/lookup?purchaseToken=` finds the owner of the subscription whose
/// `linkedPurchaseToken` chain holds the token, any token of the chain, not only the root.
@Suite struct GooglePlayLookupChainTests {
    func owner(_ g: GooglePlayGateway, token: String) throws -> (status: Int, accountId: String?, original: String?) {
        let found = try g.h.client.get("/v1/lookup?purchaseToken=\(token)", as: GatewayHarness.adminKey)
        return (found.status, found.json["accountId"] as? String, found.json["originalTransactionId"] as? String)
    }

    @Test func aPurchaseTokenFindsItsOwnerFromAnyTokenOfTheChain() throws {
        let g = try GooglePlayGateway()
        let reader = try g.h.createAccount()
        try g.subscribe(reader, token: "tok-a", productId: "basic")
        g.advance(days: 10)
        try g.subscribe(reader, token: "tok-b", productId: "premium", linkedTo: "tok-a")      // an upgrade
        g.advance(days: 10)
        try g.subscribe(reader, token: "tok-c", productId: "basic", linkedTo: "tok-b")        // and back
        for token in ["tok-a", "tok-b", "tok-c"] {
            let found = try owner(g, token: token)
            #expect(found.status == 200, "\(token)")
            #expect(found.accountId == reader.id && found.original == "tok-a", "\(token): the chain's root is its subscription")
        }
        #expect(try owner(g, token: "tok-unknown").status == 404)
    }
}
