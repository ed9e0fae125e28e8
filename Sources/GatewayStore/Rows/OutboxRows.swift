import Wire

/// The webhook outbox: events in `seq` order, each with its attempts and lease.
///
/// `seq` is assigned at insert, so with several processes two units of work may commit their
/// events out of `seq` order. Nothing here reads past a `seq`: the deliverer always takes the
/// lowest waiting row and deletes it once delivered, so a late commit is delivered next, never
/// skipped. Events of one account keep their order: each is written after the unit of work
/// bumped that account's facts version, whose row lock serialises them. A lease is taken by
/// reading the head and updating its row in one write unit of work; of two processes taking the
/// same head, the later update fails (a serialization failure) and is run again on a snapshot
/// that shows the lease.
extension RecordRows {
    public static let outboxColumns: SQL = """
        SELECT seq, event_id, kind, account_id, body, created_at, attempts, next_attempt_at, lease_owner, lease_until
        FROM outbox
        """

    public static func outboxEvent(_ row: some StoredRow) -> OutboxEvent {
        OutboxEvent(seq: row.int64(0), eventId: row.text(1), kind: WebhookEventKind(rawValue: row.text(2)) ?? .entitlementChanged,
                    accountId: row.optionalText(3), data: row.text(4), createdAt: row.instant(5), attempts: row.int(6),
                    nextAttemptAt: row.instant(7), leaseOwner: row.optionalText(8), leaseUntil: row.optionalInstant(9))
    }
}

extension SQLReading {
    public func outboxEvents(limit: Int) throws(StoreError) -> [OutboxEvent] {
        try connection.query("\(RecordRows.outboxColumns) ORDER BY seq LIMIT \(max(0, limit))", RecordRows.outboxEvent)
    }

    public func outboxLength() throws(StoreError) -> Int {
        try connection.queryFirst("SELECT COUNT(*) FROM outbox") { $0.int(0) } ?? 0
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
                lease_owner = \(event.leaseOwner), lease_until = \(event.leaseUntil)
            WHERE seq = \(event.seq)
            """)
    }

    public func deleteOutboxEvent(seq: Int64) throws(StoreError) {
        try connection.run("DELETE FROM outbox WHERE seq = \(seq)")
    }
}
