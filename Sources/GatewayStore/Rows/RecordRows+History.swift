import Wire

/// Account history rows (`history_events`), for every backend: appended only, read by account in
/// order of arrival. The details are the event's JSON object as text, written and read with
/// `Wire`'s strict JSON.
extension RecordRows {
    public static let historyColumns = "SELECT sequence, account_id, at, kind, source, details FROM history_events"

    public static func historyEvent(_ row: some StoredRow) throws(StoreError) -> HistoryEvent {
        let sequence = row.int64(0)
        let kind = try row.decode(HistoryKind.self, 3, of: "history event \(sequence)")
        let source = try row.decode(HistorySource.self, 4, of: "history event \(sequence)")
        guard let details = (try? JSONParser().parse(row.text(5)))?.objectValue else {
            throw row.corrupt("details of history event \(sequence)")
        }
        return HistoryEvent(sequence: sequence, accountId: row.text(1), at: row.instant(2), kind: kind, source: source,
                            details: details)
    }

    /// The details column's text.
    public static func historyDetails(_ event: HistoryEvent) -> String { JSONValue.object(event.details).serialized }
}
