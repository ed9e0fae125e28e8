extension SQL {
    /// Inserts a row, or updates every other column of the row with the same `key` (PostgreSQL's
    /// `INSERT … ON CONFLICT … DO UPDATE`, which SQLite ≥ 3.24 speaks too): each column is named
    /// once, beside its value. Built in one pass: ingest writes one of these per transaction.
    /// `onlyWhenChanged`: a stored row whose columns already hold these values is left as it is
    /// (`DO UPDATE … WHERE … IS DISTINCT FROM`, SQLite ≥ 3.39): no new row version or WAL page
    /// for a value most writes repeat.
    public static func upsert(into table: StaticString, key: KeyValuePairs<StaticString, any SQLBindable>,
                              set columns: KeyValuePairs<StaticString, any SQLBindable>, onlyWhenChanged: Bool = false) -> SQL {
        var sql = SQL(raw: "INSERT INTO \(table) (")
        sql.appendNames(key, after: false)
        sql.appendNames(columns, after: !key.isEmpty)
        sql.appendText(") VALUES (")
        // No key paths here: a key path into these tuples is instantiated anew on every call.
        for (index, pair) in key.enumerated() {
            if index > 0 { sql.appendText(", ") }
            sql.bind(pair.value.sqlValue)
        }
        for (index, pair) in columns.enumerated() {
            if index > 0 || !key.isEmpty { sql.appendText(", ") }
            sql.bind(pair.value.sqlValue)
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
