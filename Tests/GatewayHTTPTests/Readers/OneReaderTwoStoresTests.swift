import Entitle
import Foundation
@testable import GatewayConfiguration
import Testing
import Wire
import GatewayTesting

/// E32's reason to be: a reader who bought on the web (Stripe) and on an iPad (App Store) and
/// signed in on both sees one account with both subscriptions; another reader restoring the
/// same Apple ID's purchases never takes the signed-in reader's web subscription.
@Suite struct OneReaderTwoStoresTests {
    @Test func e32AWebAndAnIPadPurchaseSignedInOnBothAreOneAccountAndARestoreElsewhereNeverTakesTheWebSubscription() throws {
        let verifier = ScriptedIdentityVerifier()
        let flow = try StripeFlow(identityVerifier: verifier)
        let h = flow.harness
        try #require(h.client.put("/v1/products/webmag.ios", as: H.adminKey, json: """
            {"kind":"autoRenewable","grants":["webmag"],"subscriptionGroup":"webmag-ios","level":1,"platform":"ios"}
            """).status == 201)
        // The web: an account the publisher's site made, subscribed through Checkout, then signed in.
        let (web, stripeSubscription) = try flow.subscribedReader()
        let webSession = try h.signIn(verifier, subject: "reader-1", device: "browser", bearer: web.token).signedIn()
        #expect(webSession.accountId == web.id)
        // The iPad: an anonymous account that bought in the App Store, then signed in as the same reader.
        let ipad = try h.createAccount()
        let appStore = Transaction(environment: .production, transactionId: "ios-1", originalTransactionId: "ios-1",
                                   productId: "webmag.ios", purchaseDate: h.clock.now().adding(seconds: -86_400),
                                   expiresDate: h.clock.now().adding(seconds: 29 * 86_400), source: .receipt)
        try h.store(VerifiedFacts(transactions: [appStore]), for: ipad.id)
        let ipadSignIn = try h.signIn(verifier, subject: "reader-1", device: "ipad", bearer: ipad.token)
        #expect(ipadSignIn.json["mergedFrom"] as? [String] == [ipad.id])
        let ipadSession = try ipadSignIn.signedIn()
        #expect(ipadSession.accountId == web.id)
        func subscriptions(_ id: String, _ token: String) throws -> Set<String> {
            Set(try h.client.get("/v1/accounts/\(id)/entitlements", as: token).objects("subscriptions")
                .compactMap { $0["originalTransactionId"] as? String })
        }
        #expect(try subscriptions(web.id, webSession.token) == [stripeSubscription, "ios-1"])
        #expect(try subscriptions(web.id, ipadSession.token) == [stripeSubscription, "ios-1"])
        // A later Stripe purchase naming the merged iPad account reaches the reader's account.
        let second = flow.stripe.checkout(account: ipad.id, price: "price_premium", product: "prod_premium", amount: 1490)
        try flow.deliver()
        #expect(try subscriptions(web.id, webSession.token).contains(second))
        // A second reader restores the same Apple ID's purchases on another device.
        let other = try h.createAccount()
        try h.store(VerifiedFacts(transactions: [appStore]), for: other.id)
        let remaining = try subscriptions(web.id, webSession.token)
        #expect(remaining.contains(stripeSubscription) && remaining.contains(second), "the web subscriptions stay the reader's")
        #expect(try !subscriptions(other.id, other.token).contains(stripeSubscription))
    }
}
