import Wire

/// What the webhook deliverer may do next.
public enum OutboxClaim: Sendable, Equatable {
    /// This event heads its lane and is now leased to the caller until its lease ends.
    case deliver(OutboxEvent)
    /// Every lane's head waits for its next attempt or is held by another deliverer: ask again
    /// at this instant (or when woken).
    case wait(until: Instant)
    case empty
}

/// The webhook outbox as units of work. Each account's events leave strictly in `seq` order: the
/// oldest is retried until it is delivered (or dead-lettered) before a later one of that account
/// goes; other accounts' events go meanwhile (http-api.md: in order per account).
extension GatewayStore {
    /// Leases to `owner` for `lease` the oldest event that heads its lane, is due and is held by
    /// nobody else.
    public func claimOutboxHead(owner: String, now: Instant, lease: Duration) throws(StoreError) -> OutboxClaim {
        try write { tx throws(StoreError) in
            guard var head = try tx.outboxClaimable(owner: owner, now: now) else {
                guard try tx.outboxLength() > 0 else { return .empty }
                // Held elsewhere or not yet due: the soonest attempt, or a lease's end at most.
                return .wait(until: try tx.outboxNextAttempt(after: now)
                             ?? now.adding(milliseconds: Int64(lease.milliseconds)))
            }
            head.leaseOwner = owner
            head.leaseUntil = now.adding(milliseconds: Int64(lease.milliseconds))
            try tx.updateOutboxEvent(head)
            return .deliver(head)
        }
    }

    /// Dead-lettered events, oldest first (the console's list).
    public func deadLetters(limit: Int) throws(StoreError) -> [OutboxEvent] {
        try read { tx throws(StoreError) in try tx.deadLetters(limit: limit) }
    }

    /// Puts a dead-lettered event back at the head of its lane (its `seq` is kept, so it goes
    /// before its account's later events), due at once with its attempts counted afresh. Nil when
    /// no dead-lettered event has that `seq`.
    public func replayDeadLetter(seq: Int64, now: Instant) throws(StoreError) -> OutboxEvent? {
        try write { tx throws(StoreError) in
            guard var event = try tx.outboxEvent(seq: seq), event.deadLetteredAt != nil else { return nil }
            event.deadLetteredAt = nil
            event.firstFailedAt = nil
            event.attempts = 0
            event.nextAttemptAt = now
            event.leaseOwner = nil
            event.leaseUntil = nil
            try tx.updateOutboxEvent(event)
            return event
        }
    }

    /// The receiver answered 2xx: the event is gone.
    public func outboxDelivered(_ event: OutboxEvent) throws(StoreError) {
        try write { tx throws(StoreError) in try tx.deleteOutboxEvent(seq: event.seq) }
    }

    /// The attempt failed at `failedAt` (`failure` says how): counted, the lease dropped, the
    /// next attempt at `next`; dead-lettered instead once it has failed for `deadLetterAfter`
    /// since its first failure. Returns the event as stored.
    @discardableResult
    public func outboxFailed(_ event: OutboxEvent, failedAt: Instant, next: Instant, failure: String? = nil,
                             deadLetterAfter: Duration? = nil) throws(StoreError) -> OutboxEvent {
        try write { tx throws(StoreError) in
            var failed = event
            let first = event.firstFailedAt ?? failedAt
            failed.firstFailedAt = first
            if let deadLetterAfter,
               failedAt.millisecondsSinceEpoch - first.millisecondsSinceEpoch >= Int64(deadLetterAfter.milliseconds) {
                failed.deadLetteredAt = failedAt
            }
            failed.attempts += 1
            failed.nextAttemptAt = next
            failed.leaseOwner = nil
            failed.leaseUntil = nil
            failed.lastFailure = failure
            try tx.updateOutboxEvent(failed)
            return failed
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
