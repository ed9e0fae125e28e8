import Foundation
import GatewayCrypto
import GooglePlaySimulator
import OutboundHTTP
import Synchronization
import TestSupport
import Testing
import Wire
@testable import GooglePlayKit

/// The client against the simulator over real sockets: the service account's assertion, the cached
/// access token, each endpoint of googleplay.md's table, and retries.
@Suite struct GooglePlayClientTests {
    @Test func aSubscriptionIsReadWithOneAccessTokenForManyCalls() throws {
        let play = try PlayFixture()
        try play.simulator.buy(token: "tok-1", productId: "monthly", account: "7e3f1c2a-5b8d-4e6f-9a01-2c3d4e5f6a7b")
        for _ in 0..<3 {
            let purchase = try play.client.subscription(packageName: play.packageName, token: "tok-1")
            #expect(purchase.state == .active)
            #expect(purchase.line?.productId == "monthly")
            #expect(purchase.startTime == PlayFixture.start)
            #expect(purchase.obfuscatedExternalAccountId == "7e3f1c2a-5b8d-4e6f-9a01-2c3d4e5f6a7b")
            #expect(!purchase.acknowledged && !purchase.isTest)
        }
        #expect(play.simulator.accessTokensIssued == 1)
    }

    @Test func anAccessTokenIsFetchedAgainShortlyBeforeItExpires() throws {
        let play = try PlayFixture()
        try play.simulator.buy(token: "tok-1", productId: "monthly")
        _ = try play.client.subscription(packageName: play.packageName, token: "tok-1")
        // Within the refresh margin (300 s) of the hour's end: a fresh token, not the kept one.
        play.simulator.advance(seconds: 3600 - 200)
        _ = try play.client.subscription(packageName: play.packageName, token: "tok-1")
        #expect(play.simulator.accessTokensIssued == 2)
    }

    @Test func e28AcknowledgementIsWhatGoogleThenReports() throws {
        let play = try PlayFixture()
        try play.simulator.buy(token: "tok-1", productId: "monthly")
        play.simulator.buyProduct(token: "issue-tok", productId: "issue-2026-01")
        try play.client.acknowledge(packageName: play.packageName, subscription: true, productId: "monthly", token: "tok-1")
        try play.client.acknowledge(packageName: play.packageName, subscription: false, productId: "issue-2026-01", token: "issue-tok")
        #expect(try play.client.subscription(packageName: play.packageName, token: "tok-1").acknowledged)
        #expect(try play.client.product(packageName: play.packageName, productId: "issue-2026-01", token: "issue-tok").acknowledged)
        #expect(play.simulator.acknowledgements == ["tok-1", "issue-tok"])
    }

    @Test func unknownAndForgottenTokensAreNotFoundAndGone() throws {
        let play = try PlayFixture()
        #expect(throws: GooglePlayError.notFound) { try play.client.subscription(packageName: play.packageName, token: "nobody") }
        #expect(throws: GooglePlayError.notFound) {
            try play.client.product(packageName: play.packageName, productId: "issue", token: "nobody")
        }
        try play.simulator.buy(token: "tok-1", productId: "monthly")
        try play.simulator.expire("tok-1")
        play.simulator.advance(seconds: 30 * 86_400 + 61 * 86_400)
        #expect(throws: GooglePlayError.gone) { try play.client.subscription(packageName: play.packageName, token: "tok-1") }
    }

    /// E25: the simulator's Orders API refusing the service account answers Google's 403
    /// `PERMISSION_DENIED`, a refusal; the Developer API answers on. Google unreachable is no refusal.
    @Test func e25AnOrdersAPIThatRefusesIsARefusalAndAnUnreachableOneIsNot() throws {
        let play = try PlayFixture()
        try play.simulator.buy(token: "tok-1", productId: "monthly")
        let id = try #require(play.simulator.subscription("tok-1")?.orderIds.first)
        play.simulator.refusesOrders = true
        #expect(throws: GooglePlayError.unauthorized("PERMISSION_DENIED")) { try play.client.orders(packageName: play.packageName, orderIds: [id]) }
        #expect(throws: GooglePlayError.unauthorized("PERMISSION_DENIED")) { try play.client.order(packageName: play.packageName, orderId: id) }
        #expect(try play.client.subscription(packageName: play.packageName, token: "tok-1").line?.latestSuccessfulOrderId == id)
        play.simulator.refusesOrders = false
        play.simulator.failNextCalls(4, status: 503)
        do {
            _ = try play.client.orders(packageName: play.packageName, orderIds: [id])
            Issue.record("Google unreachable answered")
        } catch {
            #expect(!error.isRefusal)
        }
        #expect(try play.client.orders(packageName: play.packageName, orderIds: [id]).map(\.orderId) == [id])
    }

    /// The simulator's server gives every 429 and 503 a `Retry-After` (1 s unless told): a wait
    /// that short is honoured between retries (docs/decisions/70).
    @Test func serverErrorsAreRetriedAfterGooglesWaitUntilGoogleAnswers() throws {
        let play = try PlayFixture()
        try play.simulator.buy(token: "tok-1", productId: "monthly")
        play.simulator.failNextCalls(2, status: 503, retryAfter: "2")
        #expect(try play.client.subscription(packageName: play.packageName, token: "tok-1").state == .active)
        #expect(play.pauses.values.withLock { $0 } == [2, 2])
    }

    @Test func rateLimitsThatOutlastTheRetriesLeaveGoogleUnavailable() throws {
        let play = try PlayFixture()
        try play.simulator.buy(token: "tok-1", productId: "monthly")
        play.simulator.failNextCalls(10, status: 429)
        #expect(throws: GooglePlayError.unavailable("HTTP 429", retryAfterSeconds: 1)) {
            try play.client.subscription(packageName: play.packageName, token: "tok-1")
        }
        #expect(play.pauses.values.withLock { $0.count } == 3)
    }

    @Test func aKeyGoogleDoesNotKnowIsUnauthorized() throws {
        let stranger = try #require(RSAPrivateKey(generatingBits: 2048))
        let probe = try PlayFixture()
        let key = ServiceAccountKey(clientEmail: probe.simulator.serviceAccountEmail, privateKey: stranger,
                                    tokenURI: probe.server.tokenURL)
        let client = GooglePlayClient(configuration: GooglePlayConfiguration(apiBaseURL: probe.server.baseURL), key: key,
                                      clock: { probe.simulator.now }, pause: { _ in })
        // Not the Orders API refusing (E25): no call reached Google's API, so it is 503, never a
        // reason to build periods from snapshots.
        let refused = GooglePlayError.tokenRefused("the token endpoint answered HTTP 400 (invalid_grant)")
        #expect(throws: refused) { try client.orders(packageName: probe.packageName, orderIds: ["GPA.1"]) }
        #expect(!refused.isRefusal)
    }

    @Test func aTokenEndpointTimingOutIsAskedAgain() throws {
        let probe = try PlayFixture()
        try probe.simulator.buy(token: "tok-1", productId: "monthly")
        let transport = TokenEndpointTimingOutOnce(tokenURL: probe.server.tokenURL)
        let client = GooglePlayClient(configuration: GooglePlayConfiguration(apiBaseURL: probe.server.baseURL),
                                      key: probe.simulator.serviceAccountKeyFile(tokenURL: probe.server.tokenURL),
                                      transport: transport, clock: { probe.simulator.now }, pause: { _ in })
        #expect(try client.subscription(packageName: probe.packageName, token: "tok-1").state == .active)
        #expect(transport.timedOut.withLock { $0 } && probe.simulator.accessTokensIssued == 1)
    }

    @Test func ordersAreReadInOneBatchAndHolesAreSkipped() throws {
        let play = try PlayFixture()
        try play.simulator.buy(token: "tok-1", productId: "monthly")
        play.simulator.advance(seconds: GooglePlaySimulator.month)
        try play.simulator.renew("tok-1")
        try play.simulator.renew("tok-1")
        let purchase = try play.client.subscription(packageName: play.packageName, token: "tok-1")
        let latest = try #require(purchase.line?.latestSuccessfulOrderId)
        let ids = try #require(PlayOrder.idsThrough(latest))
        #expect(ids.count == 3 && ids[1] == ids[0] + "..0" && latest == ids[0] + "..1")
        let orders = try play.client.orders(packageName: play.packageName, orderIds: ids)
        #expect(orders.map(\.orderId) == ids)
        #expect(orders[1].servicePeriodStart == orders[0].servicePeriodEnd)
        // An id Google does not know fails the batch; the others are still read one by one.
        let holed = try play.client.orders(packageName: play.packageName, orderIds: [ids[0], ids[0] + "..7", ids[2]])
        #expect(holed.map(\.orderId) == [ids[0], ids[2]])
        // An order Google no longer keeps (410) is left out the same way: the batch, then the first order.
        play.simulator.failNextOrderCalls(2, status: 410)
        #expect(try play.client.orders(packageName: play.packageName, orderIds: ids).map(\.orderId) == [ids[1], ids[2]])
    }

    @Test func voidedPurchasesListRefundsAndChargebacks() throws {
        let play = try PlayFixture()
        try play.simulator.buy(token: "tok-1", productId: "monthly")
        let orderId = try #require(play.simulator.subscription("tok-1")?.orderIds.first)
        play.simulator.advance(seconds: 86_400)
        try play.simulator.refund(orderId: orderId, chargeback: true)
        let voided = try play.client.voidedPurchases(packageName: play.packageName, start: PlayFixture.start,
                                                     end: play.simulator.now.adding(seconds: 1))
        #expect(voided == [PlayVoidedPurchase(purchaseToken: "tok-1", orderId: orderId,
                                              voidedTime: PlayFixture.start.adding(seconds: 86_400), voidedReason: 7)])
        let order = try play.client.order(packageName: play.packageName, orderId: orderId)
        #expect(order.state == .refunded && order.refundIsChargeback)
    }

    @Test func theAssertionIsAnRS256JWTAnIndependentLibraryVerifies() throws {
        let key = try #require(RSAPrivateKey(generatingBits: 2048))
        let account = ServiceAccountKey(clientEmail: "svc@example.iam.gserviceaccount.com", privateKey: key,
                                        tokenURI: URL(string: "https://oauth2.googleapis.com/token")!)
        let assertion = try #require(OAuthAssertion.make(account, issuedAt: Instant(secondsSinceEpoch: 1_767_225_600)))
        let components = try #require(key.publicComponents)
        let output = try PyJWT.run("""
            import jwt, json, sys
            key = jwt.PyJWK({"kty": "RSA", "n": sys.argv[1], "e": sys.argv[2]}).key
            print(json.dumps(jwt.decode(sys.argv[3], key, algorithms=["RS256"], audience="https://oauth2.googleapis.com/token",
                                        options={"verify_exp": False})))
            """, arguments: [Base64URL.encode(components.modulus), Base64URL.encode(components.exponent), assertion])
        let claims = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(claims["iss"] as? String == "svc@example.iam.gserviceaccount.com")
        #expect(claims["scope"] as? String == OAuthAssertion.androidPublisherScope)
        #expect(claims["exp"] as? Int == 1_767_225_600 + 3600)
    }

    @Test func theKeyFileRoundTrips() throws {
        let play = try PlayFixture()
        let json = try #require(play.simulator.serviceAccountKeyFile(tokenURL: play.server.tokenURL).json())
        let parsed = try ServiceAccountKey.parse(Data(json.utf8))
        #expect(parsed.clientEmail == play.simulator.serviceAccountEmail && parsed.tokenURI == play.server.tokenURL)
        #expect(throws: ServiceAccountKey.LoadError.self) { try ServiceAccountKey.parse(Data(#"{"client_email":"a"}"#.utf8)) }
    }
}

/// The real transport, except that the token endpoint's first answer is 408 Request Timeout.
final class TokenEndpointTimingOutOnce: HTTPTransport {
    let tokenURL: URL
    let timedOut = Mutex(false)
    private let real = URLSessionExchange()

    init(tokenURL: URL) { self.tokenURL = tokenURL }

    func send(method: String, url: URL, headers: [String: String], body: Data?, timeout: TimeInterval,
              maximumResponseBytes: Int) throws(TransportFailure) -> HTTPExchangeResult {
        if url == tokenURL, !timedOut.withLock({ done in defer { done = true }; return done }) {
            return HTTPExchangeResult(statusCode: 408, body: Data())
        }
        return try real.send(method: method, url: url, headers: headers, body: body, timeout: timeout,
                             maximumResponseBytes: maximumResponseBytes)
    }
}
