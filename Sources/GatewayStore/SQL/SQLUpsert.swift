import Synchronization

extension SQL {
    /// Inserts a row, or updates every other column of the row with the same `key` (PostgreSQL's
    /// `INSERT … ON CONFLICT … DO UPDATE`, which SQLite ≥ 3.24 speaks too): each column is named
    /// once, beside its value. Ingest writes several of these per event, so the text of each
    /// shape (table, columns, `onlyWhenChanged`) is built once and kept (`UpsertTexts`); a call
    /// only gathers its values.
    /// `onlyWhenChanged`: a stored row whose columns already hold these values is left as it is
    /// (`DO UPDATE … WHERE … IS DISTINCT FROM`, SQLite ≥ 3.39): no new row version or WAL page
    /// for a value most writes repeat.
    public static func upsert(into table: StaticString, key: KeyValuePairs<StaticString, any SQLBindable>,
                              set columns: KeyValuePairs<StaticString, any SQLBindable>, onlyWhenChanged: Bool = false) -> SQL {
        var values: [SQLValue] = []
        values.reserveCapacity(key.count + columns.count)
        // No key paths here: a key path into these tuples is instantiated anew on every call.
        for pair in key { values.append(pair.value.sqlValue) }
        for pair in columns { values.append(pair.value.sqlValue) }
        guard let shape = UpsertTexts.Shape(table, key, columns, onlyWhenChanged) else {
            return upsertText(into: table, key: key, set: columns, onlyWhenChanged: onlyWhenChanged).binding(values)
        }
        return UpsertTexts.shared.text(of: shape) {
            upsertText(into: table, key: key, set: columns, onlyWhenChanged: onlyWhenChanged)
        }.binding(values)
    }

    /// The statement's text with a placeholder for each value, keys first, and no values.
    private static func upsertText(into table: StaticString, key: KeyValuePairs<StaticString, any SQLBindable>,
                                   set columns: KeyValuePairs<StaticString, any SQLBindable>, onlyWhenChanged: Bool) -> SQL {
        var sql = SQL(raw: "INSERT INTO \(table) (")
        sql.appendNames(key, after: false)
        sql.appendNames(columns, after: !key.isEmpty)
        sql.appendText(") VALUES (")
        for index in 0..<(key.count + columns.count) {
            if index > 0 { sql.appendText(", ") }
            sql.placeholder()
        }
        sql.appendText(")\nON CONFLICT (")
        sql.appendNames(key, after: false)
        sql.appendText(") DO UPDATE SET ")
        for (index, column) in columns.enumerated() {
            if index > 0 { sql.appendText(", ") }
            sql.appendText("\(column.key) = excluded.\(column.key)")
        }
        if onlyWhenChanged {
            for (index, column) in columns.enumerated() {
                sql.appendText(index == 0 ? "\nWHERE " : " OR ")
                sql.appendText("\(table).\(column.key) IS DISTINCT FROM excluded.\(column.key)")
            }
        }
        return sql
    }

    private mutating func appendNames(_ pairs: KeyValuePairs<StaticString, any SQLBindable>, after earlier: Bool) {
        for (index, pair) in pairs.enumerated() {
            if index > 0 || earlier { appendText(", ") }
            appendText(pair.key.description)
        }
    }
}

/// The text of every upsert shape built so far, by the addresses of its names' literals (the
/// same address is the same text: a literal never changes). The shapes are the code's own, so
/// the table stays as small as the number of places that write an upsert.
private final class UpsertTexts: Sendable {
    static let shared = UpsertTexts()

    struct Shape: Hashable {
        let words: [UInt]

        /// Nil when a name is not a literal kept in memory (a single-scalar `StaticString`).
        init?(_ table: StaticString, _ key: KeyValuePairs<StaticString, any SQLBindable>,
              _ columns: KeyValuePairs<StaticString, any SQLBindable>, _ onlyWhenChanged: Bool) {
            guard table.hasPointerRepresentation else { return nil }
            var words: [UInt] = [UInt(bitPattern: table.utf8Start), UInt(key.count), onlyWhenChanged ? 1 : 0]
            words.reserveCapacity(3 + key.count + columns.count)
            for pair in key {
                guard pair.key.hasPointerRepresentation else { return nil }
                words.append(UInt(bitPattern: pair.key.utf8Start))
            }
            for pair in columns {
                guard pair.key.hasPointerRepresentation else { return nil }
                words.append(UInt(bitPattern: pair.key.utf8Start))
            }
            self.words = words
        }
    }

    private let texts = Mutex<[Shape: SQL]>([:])

    func text(of shape: Shape, build: () -> SQL) -> SQL {
        if let kept = texts.withLock({ $0[shape] }) { return kept }
        let built = build()
        texts.withLock { $0[shape] = built }
        return built
    }
}
