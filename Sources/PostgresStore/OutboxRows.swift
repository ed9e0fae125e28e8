import GatewayStore
import Wire

/// The webhook outbox: events in `seq` order, each with its attempts and lease (read with
/// `RecordRows.outboxEvent`).
///
/// `seq` is a `bigserial` taken at insert, so two units of work may commit their events out of
/// `seq` order. Unlike the change log (read by cursor, hence its advisory lock) nothing here
/// reads past a `seq`: the deliverer always takes the lowest waiting row and deletes it once
/// delivered, so a late commit is delivered next, never skipped. Events of one account keep their
/// order: each is written after the unit of work bumped that account's facts version, whose row
/// lock serialises them. A lease is taken by reading the head and updating its row in one write
/// unit of work; of two processes taking the same head, the later update fails with a
/// serialization failure and is run again on a snapshot that shows the lease.
extension PostgresReading {
    func outboxEvents(limit: Int) throws(StoreError) -> [OutboxEvent] {
        try connection.query(RecordRows.outboxColumns + " ORDER BY seq LIMIT $1", [.optional(max(0, limit))],
                             RecordRows.outboxEvent)
    }

    func outboxLength() throws(StoreError) -> Int {
        try connection.queryFirst("SELECT COUNT(*) FROM outbox") { $0.int(0) } ?? 0
    }
}

extension PostgresWriteTransaction {
    func insert(_ event: OutboxEvent) throws(StoreError) {
        try connection.run("""
            INSERT INTO outbox (event_id, kind, account_id, body, created_at, attempts, next_attempt_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (event_id) DO NOTHING
            """, [.text(event.eventId), .text(event.kind.rawValue), .optional(event.accountId), .text(event.data),
                  .instant(event.createdAt), .optional(event.attempts), .instant(event.nextAttemptAt)])
    }

    func updateOutboxEvent(_ event: OutboxEvent) throws(StoreError) {
        try connection.run("""
            UPDATE outbox SET attempts = $1, next_attempt_at = $2, lease_owner = $3, lease_until = $4 WHERE seq = $5
            """, [.optional(event.attempts), .instant(event.nextAttemptAt), .optional(event.leaseOwner),
                  .optional(event.leaseUntil), .integer(event.seq)])
    }

    func deleteOutboxEvent(seq: Int64) throws(StoreError) {
        try connection.run("DELETE FROM outbox WHERE seq = $1", [.integer(seq)])
    }
}
