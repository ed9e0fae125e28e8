import Entitle
import Foundation
@testable import GatewayConfiguration
import GatewayStore
import IssueCatalog
import StripeKit
import StripeSimulator
import Wire

/// A gateway (the in-process harness) whose Stripe is the simulator: the simulator's events are
/// signed with the configured secret at the gateway's clock and posted to the webhook route, and
/// its API (when `api`) answers the gateway's reads in process. The catalog: `webmag`, an issue on
/// the 1st of every month of 2026 up to August; `webmag.monthly` (`price_monthly`) and
/// `webmag.premium` (`price_premium`) grant it; `webmag.jan` (`price_issue_jan`) is its January issue alone.
package final class StripeFlow: @unchecked Sendable {
    package static let secret = "whsec_flow_secret"
    package static let start = Instant(rfc3339: "2026-01-10T09:00:00Z")!
    /// When issue lists are read: every issue of the catalog is published by then.
    package static let later = Instant(rfc3339: "2026-12-01T00:00:00Z")!
    package static let months = (1...8).map { String(format: "2026-%02d", $0) }

    package static let apiKey = "rk_test_flow"

    /// What the gateway's in-process Stripe API is, around the simulator (a double that notes calls).
    package struct APIWrap {
        package let wrap: (StripeSimulator) -> any StripeAPI
        package init(wrap: @escaping (StripeSimulator) -> any StripeAPI) { self.wrap = wrap }
    }

    package let harness: GatewayHarness
    package let stripe: StripeSimulator
    /// The simulator's API on a socket, when the gateway calls it through its HTTP client.
    package let server: StripeSimulatorServer?
    /// How many of the simulator's events were posted.
    private var delivered = 0

    /// `overHTTP`: the gateway's own client (`ISSUE_GATEWAY_STRIPE_API_*`) talks to the simulator's
    /// server, pinned to `apiVersion`; otherwise the simulator answers in process when `api`.
    package init(shape: StripeShape = .basil, apiShape: StripeShape = .basil, api: Bool = true, livemode: Bool = true,
         overHTTP: Bool = false, apiVersion: String = StripeShape.basil.apiVersion,
         transport: GatewayHarness.Transport = .inProcess, wrapAPI: APIWrap? = nil,
         identityVerifier: (any IdentityVerifying)? = nil,
         configure: (inout Configuration) -> Void = { _ in }) throws {
        let stripe = StripeSimulator(start: Self.start, livemode: livemode, webhookShape: shape, apiShape: apiShape)
        self.stripe = stripe
        let server = overHTTP ? StripeSimulatorServer(simulator: stripe, apiKey: Self.apiKey) : nil
        self.server = server
        let url = try server?.start()
        harness = try GatewayHarness(transport: transport, stripeAPI: api && !overHTTP ? wrapAPI?.wrap(stripe) ?? stripe : nil,
                                     identityVerifier: identityVerifier) { configuration in
            configuration.stripe.webhookSecrets = [Self.secret]
            configure(&configuration)
            if let url {
                configuration.stripe.apiKey = Self.apiKey
                configuration.stripe.apiURL = url.absoluteString
                configuration.stripe.apiVersion = apiVersion
            }
        }
        try seedCatalog()
    }

    deinit { server?.stop() }

    private func seedCatalog() throws {
        let admin = GatewayHarness.adminKey
        try expect(201, harness.client.put("/v1/publications/webmag", as: admin, json: #"{"title":"The Web Magazine"}"#))
        for month in Self.months {
            try expect(201, harness.client.post("/v1/publications/webmag/issues", as: admin, json: GatewayHarness.issueBody(
                id: month, publishedAt: "\(month)-01T06:00:00Z", paths: ["/content/webmag/\(month)/issue.pdf"])))
        }
        try expect(201, harness.client.put("/v1/products/webmag.monthly", as: admin, json: """
            {"kind":"autoRenewable","grants":["webmag"],"subscriptionGroup":"webmag","level":2,"store":"stripe","storeProductId":"price_monthly"}
            """))
        try expect(201, harness.client.put("/v1/products/webmag.premium", as: admin, json: """
            {"kind":"autoRenewable","grants":["webmag"],"subscriptionGroup":"webmag","level":1,"store":"stripe","storeProductId":"price_premium"}
            """))
        try expect(201, harness.client.put("/v1/products/webmag.jan", as: admin, json: """
            {"kind":"issue","grants":["webmag"],"issue":{"publicationId":"webmag","issueId":"2026-01"},"store":"stripe","storeProductId":"price_issue_jan"}
            """))
    }

    package func reader() throws -> (id: String, token: String) { try harness.createAccount() }

    /// A new reader who subscribed to `price_monthly` (9.90) through Checkout, its events delivered.
    package func subscribedReader(trialDays: Int? = nil) throws -> (reader: (id: String, token: String), subscription: String) {
        let reader = try reader()
        let subscription = stripe.checkout(account: reader.id, price: "price_monthly", product: "prod_mag", amount: 990,
                                           trialDays: trialDays)
        try deliver()
        return (reader, subscription)
    }

    /// Signs `body` as Stripe would at the gateway's clock (or `at`) and posts it.
    package func post(_ body: [UInt8], secret: String = StripeFlow.secret, at timestamp: Int64? = nil) throws -> APIResponse {
        let t = timestamp ?? harness.clock.now().secondsSinceEpoch
        let header = try StripeSignatureVerifier.header(for: body, timestamp: t, secrets: [secret])
        return try harness.client.send("POST", "/v1/stripe/webhooks", headers: [("Stripe-Signature", header)], body: body)
    }

    /// The events the simulator made since the last delivery, in `order` (default: as made),
    /// each answered 200.
    package func deliver(order: (([[UInt8]]) -> [[UInt8]])? = nil) throws {
        let pending = stripe.events.dropFirst(delivered).map(\.body)
        delivered += pending.count
        for body in order?(Array(pending)) ?? Array(pending) {
            let answer = try post(body)
            guard answer.status == 200 else { throw HarnessError.unexpected("the webhook answered \(answer.status): \(answer.text)") }
        }
    }

    /// Events the gateway is never sent (lost deliveries).
    package func dropPending() { delivered = stripe.events.count }

    /// Every event the simulator made, for a replay into a fresh gateway.
    package var allEvents: [[UInt8]] { stripe.events.map(\.body) }

    /// Ids of the `webmag` issues the reader may download, asked at `at` (default: when every issue is out).
    package func entitledIssues(_ reader: (id: String, token: String), at instant: Instant = StripeFlow.later) throws -> [String] {
        harness.clock.set(instant)
        let answer = try harness.client.get("/v1/accounts/\(reader.id)/issues?publication=webmag&entitled=true", as: reader.token)
        guard answer.status == 200, let issues = answer.json["issues"] as? [[String: Any]] else {
            throw HarnessError.unexpected("issues answered \(answer.status): \(answer.text)")
        }
        return issues.compactMap { $0["id"] as? String }.sorted()
    }

    /// The reader's subscriptions as the entitlements route renders them, at `at` (default: the simulator's now).
    package func subscriptions(_ reader: (id: String, token: String), at instant: Instant? = nil) throws -> [[String: Any]] {
        harness.clock.set(instant ?? stripe.now)
        let answer = try harness.client.get("/v1/accounts/\(reader.id)/entitlements", as: reader.token)
        guard answer.status == 200, let subscriptions = answer.json["subscriptions"] as? [[String: Any]] else {
            throw HarnessError.unexpected("entitlements answered \(answer.status): \(answer.text)")
        }
        return subscriptions
    }

    package func state(_ reader: (id: String, token: String), at instant: Instant? = nil) throws -> (state: String?, code: Double?) {
        let first = try subscriptions(reader, at: instant).first
        return (first?["state"] as? String, first?["entitlementCode"] as? Double)
    }

    package func storedTransactions(_ reader: (id: String, token: String)) throws -> [Transaction] {
        try harness.runtime.core.store.accountFacts(reader.id).transactions
    }

    private func expect(_ status: Int, _ response: APIResponse) throws {
        guard response.status == status else { throw HarnessError.unexpected("expected \(status), got \(response.status): \(response.text)") }
    }
}
