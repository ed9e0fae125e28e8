import GatewayStore
import Wire

/// Account history rows (`history_events`, read with `RecordRows.historyEvent`): appended only,
/// read by account in order of arrival, `sequence` being the history's cursor.
extension PostgresReading {
    func history(ofAccount accountId: String, after sequence: Int64?, limit: Int) throws(StoreError) -> [HistoryEvent] {
        try connection.query(RecordRows.historyColumns + " WHERE account_id = $1 AND sequence > $2 ORDER BY sequence LIMIT $3",
                             [.text(accountId), .integer(sequence ?? 0), .optional(max(0, limit))]) {
            row throws(StoreError) in try RecordRows.historyEvent(row)
        }
    }
}

extension PostgresWriteTransaction {
    /// A reader pages an account's history by cursor, so within one account a sequence must never
    /// commit after a higher one (the reader would already be past it). `bigserial` alone does not
    /// promise that: sequences are taken at insert and committed in any order. History needs no
    /// global lock like the change log's, only a per-account one, and the account row is that
    /// lock: the unit of work takes it (`FOR NO KEY UPDATE`, the lock a facts-version bump takes
    /// too, compatible with the foreign-key check of the insert) before its first sequence and
    /// holds it until it ends, so the next writer of that account's history takes its sequences
    /// after this one committed (under `REPEATABLE READ` it is run again on a fresh snapshot when
    /// this one changed the row). Every caller that also bumps the account's facts version has
    /// done so already (the change log's lock before the row's, see `recordChange`); an operator
    /// action takes no other lock, so no deadlock arises.
    func append(_ event: HistoryEvent) throws(StoreError) {
        try connection.run("SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE", [.text(event.accountId)])
        try connection.run("""
            INSERT INTO history_events (account_id, at, kind, source, details) VALUES ($1, $2, $3, $4, $5)
            """, [.text(event.accountId), .instant(event.at), .text(event.kind.rawValue), .text(event.source.rawValue),
                  .text(RecordRows.historyDetails(event))])
    }
}
