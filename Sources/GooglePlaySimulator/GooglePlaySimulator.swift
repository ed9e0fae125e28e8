import Foundation
import GatewayCrypto
import GooglePlayKit
import Synchronization
import Wire

/// Google Play played from a script for tests and developers (never in the product): its own
/// clock, a service account whose key file it hands out and whose assertions it checks, the
/// Developer and Orders API answers of every token it sold, voided purchases, a JWKS and the OIDC
/// push tokens it signs, and scenario steps (`GooglePlaySimulator+Scenario`) that change purchases
/// as Google would and say which notification Google would send.
public final class GooglePlaySimulator: Sendable {
    struct State: Sendable {
        var now: Instant
        var subscriptions: [String: SimulatedSubscription] = [:]
        var orders: [String: SimulatedOrder] = [:]
        var products: [String: SimulatedProductPurchase] = [:]
        var voided: [SimulatedVoidedPurchase] = []
        var accessTokens: [String: Instant] = [:]
        /// Answers forced on the next API calls (a status each, and the `Retry-After` it carries),
        /// for retries and outages.
        var forcedStatuses: [(status: Int, retryAfter: String?)] = []
        /// Answers forced on the next token-endpoint calls, the same way.
        var forcedTokenStatuses: [(status: Int, retryAfter: String?)] = []
        /// Answers forced on the next Orders API calls only (`orders.get`, `orders:batchGet`).
        var forcedOrderStatuses: [Int] = []
        /// Acknowledgements answered 503 before Google takes them (E28 retries).
        var failingAcknowledgements = 0
        /// The Orders API refuses the service account (403 `PERMISSION_DENIED`), as for a
        /// publisher whose account lacks the financial-data permission (E25).
        var ordersRefused = false
        var orderCount = 0
        var messageCount = 0
        var tokenRequests = 0
        var apiRequests: [String] = []
        /// Acknowledgements in the order they came.
        var acknowledgements: [String] = []
    }

    public let packageName: String
    public let serviceAccountEmail: String
    /// The key the service account signs with (the simulator checks assertions with its public half).
    public let serviceAccountKey: RSAPrivateKey
    /// Google's OIDC signing key for push tokens, published in the JWKS under `signingKeyId`.
    public let signingKey: RSAPrivateKey
    public let signingKeyId: String
    /// The push subscription's service account (`email` of push tokens).
    public let pushEmail: String
    /// How long an access token lives (`expires_in`).
    public let accessTokenLifetimeSeconds: Int64
    /// The clock of credentials (assertions, access tokens, push tokens) when it is not the
    /// scenario's: a gateway on the wall clock refuses tokens dated by a clock moved days ahead.
    let credentialClock: (@Sendable () -> Instant)?
    let state: Mutex<State>

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case unknownToken(String)
        case unknownOrder(String)
        case invalid(String)

        public var description: String {
            switch self {
            case .unknownToken(let token): "no purchase with token \(token)"
            case .unknownOrder(let id): "no order \(id)"
            case .invalid(let why): why
            }
        }
    }

    public init?(packageName: String = "com.example.magazine", now: Instant,
                 serviceAccountEmail: String = "gateway@issue-gateway.iam.gserviceaccount.com",
                 pushEmail: String = "pubsub-push@issue-gateway.iam.gserviceaccount.com",
                 accessTokenLifetimeSeconds: Int64 = 3600, credentialClock: (@Sendable () -> Instant)? = nil) {
        guard let account = RSAPrivateKey(generatingBits: 2048), let signing = RSAPrivateKey(generatingBits: 2048) else {
            return nil
        }
        self.packageName = packageName
        self.serviceAccountEmail = serviceAccountEmail
        self.serviceAccountKey = account
        self.signingKey = signing
        self.signingKeyId = "sim-" + Hex.encode(Array(signing.publicComponents?.modulus.prefix(8) ?? []))
        self.pushEmail = pushEmail
        self.accessTokenLifetimeSeconds = accessTokenLifetimeSeconds
        self.credentialClock = credentialClock
        self.state = Mutex(State(now: now))
    }

    // MARK: Clock

    public var now: Instant { state.withLock { $0.now } }

    /// When credentials are checked and issued: `credentialClock`, or the scenario's clock.
    public var credentialNow: Instant { credentialClock?() ?? now }

    public func setClock(_ instant: Instant) { state.withLock { $0.now = instant } }

    public func advance(seconds: Int64) { state.withLock { $0.now = $0.now.adding(seconds: seconds) } }

    // MARK: Service account

    /// The service account's key file, `token_uri` pointing at `tokenURL`.
    public func serviceAccountKeyFile(tokenURL: URL) -> ServiceAccountKey {
        ServiceAccountKey(clientEmail: serviceAccountEmail, privateKey: serviceAccountKey, tokenURI: tokenURL)
    }

    /// The next `count` API calls answer `status` (after the access-token check), with a
    /// `Retry-After` field when `retryAfter` is given, then normal answers resume.
    public func failNextCalls(_ count: Int, status: Int, retryAfter: String? = nil) {
        state.withLock { $0.forcedStatuses += Array(repeating: (status, retryAfter), count: count) }
    }

    /// The next `count` token-endpoint calls answer `status`, with a `Retry-After` field when
    /// `retryAfter` is given: Google's OAuth server throttling or failing before any API call.
    public func failNextTokenCalls(_ count: Int, status: Int, retryAfter: String? = nil) {
        state.withLock { $0.forcedTokenStatuses += Array(repeating: (status, retryAfter), count: count) }
    }

    /// The next `count` Orders API calls answer `status` (the Developer API answers on): the Orders
    /// API unreachable while Google's other calls work, which is no refusal (E25).
    public func failNextOrderCalls(_ count: Int, status: Int) {
        state.withLock { $0.forcedOrderStatuses += Array(repeating: status, count: count) }
    }

    /// Whether the Orders API (`orders.get`, `orders:batchGet`) answers 403 `PERMISSION_DENIED`
    /// (the service account lacks the permission to view financial data) instead of the orders;
    /// the Developer API answers on.
    public var refusesOrders: Bool {
        get { state.withLock { $0.ordersRefused } }
        set { state.withLock { $0.ordersRefused = newValue } }
    }

    /// The next `count` acknowledgements answer 503 (every other call is answered).
    public func failNextAcknowledgements(_ count: Int) { state.withLock { $0.failingAcknowledgements += count } }

    public var acknowledgementsStillFailing: Int { state.withLock { $0.failingAcknowledgements } }

    /// How many access tokens the token endpoint has issued.
    public var accessTokensIssued: Int { state.withLock { $0.tokenRequests } }
    /// The API calls answered so far (`name path`), for tests that count them.
    public var apiRequests: [String] { state.withLock { $0.apiRequests } }
    public var acknowledgements: [String] { state.withLock { $0.acknowledgements } }

    public func subscription(_ token: String) -> SimulatedSubscription? { state.withLock { $0.subscriptions[token] } }
    public func order(_ orderId: String) -> SimulatedOrder? { state.withLock { $0.orders[orderId] } }
    public func productPurchase(_ token: String) -> SimulatedProductPurchase? { state.withLock { $0.products[token] } }
}
