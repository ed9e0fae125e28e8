import GatewayStore
import Wire

/// Account history rows (`history_events`, read with `RecordRows.historyEvent`).
extension SQLiteReading {
    func history(ofAccount accountId: String, after sequence: Int64?, limit: Int) throws(StoreError) -> [HistoryEvent] {
        try connection.query(RecordRows.historyColumns + " WHERE account_id = ? AND sequence > ? ORDER BY sequence LIMIT ?",
                             [.text(accountId), .integer(sequence ?? 0), .integer(Int64(limit))]) {
            row throws(StoreError) in try RecordRows.historyEvent(row)
        }
    }
}

extension SQLiteWriteTransaction {
    func append(_ event: HistoryEvent) throws(StoreError) {
        try connection.run("INSERT INTO history_events (account_id, at, kind, source, details) VALUES (?, ?, ?, ?, ?)",
                           [.text(event.accountId), .integer(event.at.millisecondsSinceEpoch), .text(event.kind.rawValue),
                            .text(event.source.rawValue), .text(RecordRows.historyDetails(event))])
    }
}
