import Wire

/// Account history rows (`history_events`): appended only, read by account in order of arrival,
/// `sequence` being the history's cursor. The details are the event's JSON object as text,
/// written and read with `Wire`'s strict JSON, stored compacted (`HistoryDetailsText`).
extension RecordRows {
    public static let historyColumns: SQL = "SELECT sequence, account_id, at, kind, source, details FROM history_events"

    public static func historyEvent(_ row: some StoredRow) throws(StoreError) -> HistoryEvent {
        let sequence = row.int64(0)
        let kind = try row.decode(HistoryKind.self, 3, of: "history event \(sequence)")
        let source = try row.decode(HistorySource.self, 4, of: "history event \(sequence)")
        guard let text = HistoryDetailsText.expand(row.text(5)), let details = (try? JSONParser().parse(text))?.objectValue else {
            throw row.corrupt("details of history event \(sequence)")
        }
        return HistoryEvent(sequence: sequence, accountId: row.text(1), at: row.instant(2), kind: kind, source: source,
                            details: details)
    }
}

extension SQLReading {
    public func history(ofAccount accountId: String, after sequence: Int64?, limit: Int) throws(StoreError) -> [HistoryEvent] {
        try connection.query("""
            \(RecordRows.historyColumns) WHERE account_id = \(accountId) AND sequence > \(sequence ?? 0)
            ORDER BY sequence LIMIT \(max(0, limit))
            """) { row throws(StoreError) in try RecordRows.historyEvent(row) }
    }
}

extension RecordRows {
    /// History rows one `INSERT` holds at most: bounds its parameters (five a row) and the
    /// distinct statements a connection prepares.
    static let historyRowsPerStatement = 64
}

extension SQLWriteTransaction {
    /// A reader pages an account's history by cursor, so within one account a sequence must never
    /// commit after a higher one: the backend's history lock (`SQLWriteHooks.lockHistory`) is
    /// taken before the sequence is.
    public func append(_ event: HistoryEvent) throws(StoreError) { try append(contentsOf: [event]) }

    /// One statement per `historyRowsPerStatement` of `events`, whose rows take their sequences
    /// in the order given (a round trip each on PostgreSQL, where an ingest writes several).
    public func append(contentsOf events: [HistoryEvent]) throws(StoreError) {
        for event in events { try hooks.lockHistory(ofAccount: event.accountId) }
        var start = events.startIndex
        while start < events.endIndex {
            let end = min(start + RecordRows.historyRowsPerStatement, events.endIndex)
            var insert: SQL = "INSERT INTO history_events (account_id, at, kind, source, details) VALUES "
            for (index, event) in events[start..<end].enumerated() {
                insert.append("""
                    \(raw: index == 0 ? "" : ", ")(\(event.accountId), \(event.at), \(event.kind.rawValue), \
                    \(event.source.rawValue), \(HistoryDetailsText.compact(JSONValue.object(event.details).serialized)))
                    """)
            }
            try connection.runLater(insert)
            start = end
        }
    }
}
