import Wire

/// What the webhook deliverer may do next.
public enum OutboxClaim: Sendable, Equatable {
    /// This event is the oldest and now leased to the caller until its lease ends.
    case deliver(OutboxEvent)
    /// The oldest event waits for its next attempt, or another process holds it: ask again at
    /// this instant (or when woken).
    case wait(until: Instant)
    case empty
}

/// The webhook outbox as units of work. Events leave strictly in `seq` order: the oldest is
/// retried until it is delivered before any later one goes (http-api.md: in order per account;
/// the outbox keeps one order for all, which implies it).
extension GatewayStore {
    /// Leases the oldest event to `owner` for `lease` when it is due and nobody else holds it.
    public func claimOutboxHead(owner: String, now: Instant, lease: Duration) throws(StoreError) -> OutboxClaim {
        try write { tx throws(StoreError) in
            guard var head = try tx.outboxEvents(limit: 1).first else { return .empty }
            if let until = head.leaseUntil, until > now, head.leaseOwner != owner { return .wait(until: until) }
            guard head.nextAttemptAt <= now else { return .wait(until: head.nextAttemptAt) }
            head.leaseOwner = owner
            head.leaseUntil = now.adding(milliseconds: Int64(lease.milliseconds))
            try tx.updateOutboxEvent(head)
            return .deliver(head)
        }
    }

    /// The receiver answered 2xx: the event is gone.
    public func outboxDelivered(_ event: OutboxEvent) throws(StoreError) {
        try write { tx throws(StoreError) in try tx.deleteOutboxEvent(seq: event.seq) }
    }

    /// The attempt failed: counted, the lease dropped, the next attempt at `next`.
    public func outboxFailed(_ event: OutboxEvent, next: Instant) throws(StoreError) {
        try write { tx throws(StoreError) in
            var failed = event
            failed.attempts += 1
            failed.nextAttemptAt = next
            failed.leaseOwner = nil
            failed.leaseUntil = nil
            try tx.updateOutboxEvent(failed)
        }
    }

    /// The oldest waiting events, at most `limit`.
    public func outboxEvents(limit: Int) throws(StoreError) -> [OutboxEvent] {
        try read { tx throws(StoreError) in try tx.outboxEvents(limit: limit) }
    }

    public func outboxLength() throws(StoreError) -> Int {
        try read { tx throws(StoreError) in try tx.outboxLength() }
    }
}
