import Wire

/// The webhook outbox: events in `seq` order per lane (an account, or no account), each with its
/// attempts and lease; dead-lettered events are out of every lane.
///
/// `seq` is assigned at insert, so with several processes two units of work may commit their
/// events out of `seq` order. Nothing here reads past a `seq`: the deliverer always takes the
/// lowest waiting row of a lane and deletes it once delivered, so a late commit is delivered
/// next, never skipped. Events of one account keep their order: each is written after the unit of work
/// bumped that account's facts version, whose row lock serialises them. A lease is taken by
/// reading the head and updating its row in one write unit of work; of two processes taking the
/// same head, the later update fails (a serialization failure) and is run again on a snapshot
/// that shows the lease.
extension RecordRows {
    public static let outboxColumns: SQL = """
        SELECT seq, event_id, kind, account_id, body, created_at, attempts, next_attempt_at, lease_owner, lease_until,
            first_failed_at, dead_lettered_at, last_failure
        FROM outbox
        """

    /// The events of no account (`issue.published`) are one lane, as if of one account whose id
    /// no account has.
    static let noAccountLane = ""

    public static func outboxEvent(_ row: some StoredRow) -> OutboxEvent {
        OutboxEvent(seq: row.int64(0), eventId: row.text(1), kind: WebhookEventKind(rawValue: row.text(2)) ?? .entitlementChanged,
                    accountId: row.optionalText(3), data: row.text(4), createdAt: row.instant(5), attempts: row.int(6),
                    nextAttemptAt: row.instant(7), leaseOwner: row.optionalText(8), leaseUntil: row.optionalInstant(9),
                    firstFailedAt: row.optionalInstant(10), deadLetteredAt: row.optionalInstant(11),
                    lastFailure: row.optionalText(12))
    }
}

extension SQLReading {
    /// Waiting events (not dead-lettered), oldest first.
    public func outboxEvents(limit: Int) throws(StoreError) -> [OutboxEvent] {
        try connection.query("\(RecordRows.outboxColumns) WHERE dead_lettered_at IS NULL ORDER BY seq LIMIT \(max(0, limit))",
                             RecordRows.outboxEvent)
    }

    public func outboxLength() throws(StoreError) -> Int {
        try connection.queryFirst("SELECT COUNT(*) FROM outbox WHERE dead_lettered_at IS NULL") { $0.int(0) } ?? 0
    }

    /// The oldest event that heads its lane (no older waiting event of its account), is due at
    /// `now` and is leased to nobody else: the next one to deliver.
    public func outboxClaimable(owner: String, now: Instant) throws(StoreError) -> OutboxEvent? {
        let lane = RecordRows.noAccountLane
        return try connection.queryFirst("""
            \(RecordRows.outboxColumns) o
            WHERE o.dead_lettered_at IS NULL AND o.next_attempt_at <= \(now)
              AND (o.lease_until IS NULL OR o.lease_until <= \(now) OR o.lease_owner = \(owner))
              AND NOT EXISTS (SELECT 1 FROM outbox p
                              WHERE p.dead_lettered_at IS NULL AND p.seq < o.seq
                                AND COALESCE(p.account_id, \(lane)) = COALESCE(o.account_id, \(lane)))
            ORDER BY o.seq LIMIT 1
            """, RecordRows.outboxEvent)
    }

    /// The soonest a waiting event becomes due after `now`, if any waits.
    public func outboxNextAttempt(after now: Instant) throws(StoreError) -> Instant? {
        try connection.queryFirst("""
            SELECT MIN(next_attempt_at) FROM outbox WHERE dead_lettered_at IS NULL AND next_attempt_at > \(now)
            """) { $0.optionalInstant(0) } ?? nil
    }

    /// Dead-lettered events, oldest first.
    public func deadLetters(limit: Int) throws(StoreError) -> [OutboxEvent] {
        try connection.query("\(RecordRows.outboxColumns) WHERE dead_lettered_at IS NOT NULL ORDER BY seq LIMIT \(max(0, limit))",
                             RecordRows.outboxEvent)
    }

    public func outboxEvent(seq: Int64) throws(StoreError) -> OutboxEvent? {
        try connection.queryFirst("\(RecordRows.outboxColumns) WHERE seq = \(seq)", RecordRows.outboxEvent)
    }
}

extension SQLWriteTransaction {
    public func insert(_ event: OutboxEvent) throws(StoreError) {
        try connection.run("""
            INSERT INTO outbox (event_id, kind, account_id, body, created_at, attempts, next_attempt_at)
            VALUES (\(event.eventId), \(event.kind.rawValue), \(event.accountId), \(event.data), \(event.createdAt),
                    \(event.attempts), \(event.nextAttemptAt))
            ON CONFLICT (event_id) DO NOTHING
            """)
    }

    public func updateOutboxEvent(_ event: OutboxEvent) throws(StoreError) {
        try connection.run("""
            UPDATE outbox SET attempts = \(event.attempts), next_attempt_at = \(event.nextAttemptAt),
                lease_owner = \(event.leaseOwner), lease_until = \(event.leaseUntil),
                first_failed_at = \(event.firstFailedAt), dead_lettered_at = \(event.deadLetteredAt),
                last_failure = \(event.lastFailure)
            WHERE seq = \(event.seq)
            """)
    }

    public func deleteOutboxEvent(seq: Int64) throws(StoreError) {
        try connection.run("DELETE FROM outbox WHERE seq = \(seq)")
    }
}
