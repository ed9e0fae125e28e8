import GatewayStore
import Wire

/// The webhook outbox: events in `seq` order, each with its attempts and lease (read with
/// `RecordRows.outboxEvent`).
extension SQLiteReading {
    func outboxEvents(limit: Int) throws(StoreError) -> [OutboxEvent] {
        try connection.query(RecordRows.outboxColumns + " ORDER BY seq LIMIT ?", [.integer(Int64(limit))], RecordRows.outboxEvent)
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
