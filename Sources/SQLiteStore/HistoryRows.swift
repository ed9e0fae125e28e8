import GatewayStore
import Wire

/// Account history rows (`history_events`): appended only, read by account in order of arrival.
/// The details are the event's JSON object as text, written and read with `Wire`'s strict JSON.
enum HistoryRows {
    static let columns = "SELECT sequence, account_id, at, kind, source, details FROM history_events"

    static func event(_ row: SQLiteRow) throws(StoreError) -> HistoryEvent {
        let sequence = row.int64(0)
        let kind = try row.decode(HistoryKind.self, 3, of: "history event \(sequence)")
        let source = try row.decode(HistorySource.self, 4, of: "history event \(sequence)")
        guard let details = (try? JSONParser().parse(row.text(5)))?.objectValue else {
            throw row.corrupt("details of history event \(sequence)")
        }
        return HistoryEvent(sequence: sequence, accountId: row.text(1), at: row.instant(2), kind: kind, source: source,
                            details: details)
    }
}

extension SQLiteReading {
    func history(ofAccount accountId: String, after sequence: Int64?, limit: Int) throws(StoreError) -> [HistoryEvent] {
        try connection.query(HistoryRows.columns + " WHERE account_id = ? AND sequence > ? ORDER BY sequence LIMIT ?",
                             [.text(accountId), .integer(sequence ?? 0), .integer(Int64(limit))], HistoryRows.event)
    }
}

extension SQLiteWriteTransaction {
    func append(_ event: HistoryEvent) throws(StoreError) {
        try connection.run("INSERT INTO history_events (account_id, at, kind, source, details) VALUES (?, ?, ?, ?, ?)",
                           [.text(event.accountId), .integer(event.at.millisecondsSinceEpoch), .text(event.kind.rawValue),
                            .text(event.source.rawValue), .text(JSONValue.object(event.details).serialized)])
    }
}
