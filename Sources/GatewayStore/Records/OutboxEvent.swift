import Wire

/// The webhook events of http-api.md (pushes and webhooks).
public enum WebhookEventKind: String, Sendable, CaseIterable {
    case issuePublished = "issue.published"
    case entitlementChanged = "entitlement.changed"
    /// readers.md E35: `{"accountId"}` of an account deleted.
    case accountDeleted = "account.deleted"
}

/// One webhook event waiting in the store's outbox until the publisher's backend answers 2xx.
/// Events of one account leave in `seq` order (http-api.md: in order per account), each account
/// (and the events of no account, `issue.published`) a lane of its own: a failing event holds back
/// its own lane only. A process works one only while it holds its lease, so several gateway
/// processes on one database never deliver an event at once. An event that has failed for the
/// configured time is dead-lettered: kept aside, out of its lane, until an operator replays it.
public struct OutboxEvent: Hashable, Sendable {
    /// Assigned by the store when the event is written; 0 before.
    public var seq: Int64
    /// Deterministic, so the same change never makes two events (and receivers may dedupe on it):
    /// `issue.published/<publication>/<issue>`, `entitlement.changed/<account>/<facts version>`,
    /// `account.deleted/<account>`.
    public var eventId: String
    public var kind: WebhookEventKind
    public var accountId: String?
    /// The event's `data` member, a JSON object.
    public var data: String
    public var createdAt: Instant
    public var attempts: Int
    public var nextAttemptAt: Instant
    public var leaseOwner: String?
    public var leaseUntil: Instant?
    /// When its first attempt failed (since it was written or last replayed).
    public var firstFailedAt: Instant?
    /// Set when the event was set aside after failing for too long; nil while it waits.
    public var deadLetteredAt: Instant?
    /// What the last attempt came to (`HTTP 500`, `no answer`), for the console.
    public var lastFailure: String?

    public init(seq: Int64 = 0, eventId: String, kind: WebhookEventKind, accountId: String?, data: String,
                createdAt: Instant, attempts: Int = 0, nextAttemptAt: Instant? = nil, leaseOwner: String? = nil,
                leaseUntil: Instant? = nil, firstFailedAt: Instant? = nil, deadLetteredAt: Instant? = nil,
                lastFailure: String? = nil) {
        self.seq = seq; self.eventId = eventId; self.kind = kind; self.accountId = accountId; self.data = data
        self.createdAt = createdAt; self.attempts = attempts; self.nextAttemptAt = nextAttemptAt ?? createdAt
        self.leaseOwner = leaseOwner; self.leaseUntil = leaseUntil
        self.firstFailedAt = firstFailedAt; self.deadLetteredAt = deadLetteredAt; self.lastFailure = lastFailure
    }

    /// The body POSTed to the webhook URL: `{"id","type","createdAt","data"}`.
    public var body: String {
        var w = JSONWriter()
        w.object { w in
            w.field("id", eventId)
            w.field("type", kind.rawValue)
            w.field("createdAt", createdAt.rfc3339)
            w.key("data")
            w.rawValue(Array(data.utf8))
        }
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
