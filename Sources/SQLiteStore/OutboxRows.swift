import GatewayStore
import Wire

/// The webhook outbox: events in `seq` order, each with its attempts and lease.
enum OutboxRows {
    static let columns = """
        SELECT seq, event_id, kind, account_id, body, created_at, attempts, next_attempt_at, lease_owner, lease_until
        FROM outbox
        """

    static func event(_ row: SQLiteRow) -> OutboxEvent {
        OutboxEvent(seq: row.int64(0), eventId: row.text(1), kind: WebhookEventKind(rawValue: row.text(2)) ?? .entitlementChanged,
                    accountId: row.optionalText(3), data: row.text(4), createdAt: row.instant(5), attempts: row.int(6),
                    nextAttemptAt: row.instant(7), leaseOwner: row.optionalText(8), leaseUntil: row.optionalInstant(9))
    }
}

extension SQLiteReading {
    func outboxEvents(limit: Int) throws(StoreError) -> [OutboxEvent] {
        try connection.query(OutboxRows.columns + " ORDER BY seq LIMIT ?", [.integer(Int64(limit))], OutboxRows.event)
    }

    func outboxLength() throws(StoreError) -> Int {
        try connection.queryFirst("SELECT COUNT(*) FROM outbox") { $0.int(0) } ?? 0
    }
}

extension SQLiteWriteTransaction {
    func insert(_ event: OutboxEvent) throws(StoreError) {
        try connection.run("""
            INSERT INTO outbox (event_id, kind, account_id, body, created_at, attempts, next_attempt_at)
            VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING
            """, [.text(event.eventId), .text(event.kind.rawValue), .optional(event.accountId), .text(event.data),
                  .integer(event.createdAt.millisecondsSinceEpoch), .integer(Int64(event.attempts)),
                  .integer(event.nextAttemptAt.millisecondsSinceEpoch)])
    }

    func updateOutboxEvent(_ event: OutboxEvent) throws(StoreError) {
        try connection.run("""
            UPDATE outbox SET attempts = ?, next_attempt_at = ?, lease_owner = ?, lease_until = ? WHERE seq = ?
            """, [.integer(Int64(event.attempts)), .integer(event.nextAttemptAt.millisecondsSinceEpoch),
                  .optional(event.leaseOwner), .optional(event.leaseUntil?.millisecondsSinceEpoch), .integer(event.seq)])
    }

    func deleteOutboxEvent(seq: Int64) throws(StoreError) {
        try connection.run("DELETE FROM outbox WHERE seq = ?", [.integer(seq)])
    }
}
