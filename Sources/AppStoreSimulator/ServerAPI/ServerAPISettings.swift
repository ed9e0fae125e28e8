import AppStoreKit
import Entitle
import Foundation
import IssueCatalog
import Wire

/// How the simulated Server API behaves (docs/appstore-simulator.md): the key it trusts, and the
/// failures a test or developer asks for.
public struct ServerAPISettings: Sendable {
    /// The public half of the gateway's In-App Purchase key: tokens must verify with it. Nil:
    /// every request is a 401 (no key was registered, as with Apple).
    public var publicKey: ES256PublicKey?
    /// When set, a token's `kid` / `iss` must be these.
    public var keyId: String?
    public var issuerId: String?
    /// An app with no production release: production answers every request with a bare 401.
    public var neverReleased = false
    /// The next this-many requests are answered 429 with `Retry-After` this far ahead.
    public var rateLimitedRequests = 0
    public var retryAfterMilliseconds: Int64 = 200
    /// Apple being slow: each statuses answer is sent this long after the request.
    public var statusesDelayMilliseconds = 0
    /// Where notifications are delivered (a test notification, `sendNotification`).
    public var notificationURL: URL?

    public init(publicKey: ES256PublicKey? = nil, keyId: String? = nil, issuerId: String? = nil) {
        self.publicKey = publicKey; self.keyId = keyId; self.issuerId = issuerId
    }
}

/// One notification the simulated App Store sent (or tried to): what its notification history
/// answers.
struct SentNotification: Sendable {
    var environment: StoreEnvironment
    var notificationUUID: String
    var type: String
    var signedPayload: String
    var signedDate: Instant
    var transactionIds: Set<String>
    /// `(attemptDate, sendAttemptResult)`, oldest first.
    var attempts: [(Instant, String)]

    var failed: Bool { attempts.last?.1 != "SUCCESS" }
}

/// The simulated Server API's mutable state, kept beside the script's.
struct ServerAPIState: Sendable {
    var settings = ServerAPISettings()
    var sent: [SentNotification] = []

    /// Delivery attempts recorded over every notification kept.
    var deliveryAttempts: Int { sent.reduce(0) { $0 + $1.attempts.count } }

    /// Notifications kept for the history (oldest dropped first).
    static let sentLimit = 10_000
}
