extension SQL {
    /// Inserts a row, or updates every other column of the row with the same `key` (PostgreSQL's
    /// `INSERT … ON CONFLICT … DO UPDATE`, which SQLite ≥ 3.24 speaks too): each column is named
    /// once, beside its value.
    public static func upsert(into table: StaticString, key: KeyValuePairs<StaticString, any SQLBindable>,
                              set columns: KeyValuePairs<StaticString, any SQLBindable>) -> SQL {
        let names = (key.map(\.key) + columns.map(\.key)).map(\.description)
        let values = (key.map(\.value) + columns.map(\.value)).map { value -> SQL in "\(value.sqlValue)" }
        let keyNames = key.map(\.key.description).joined(separator: ", ")
        let updates = columns.map { "\($0.key) = excluded.\($0.key)" }.joined(separator: ", ")
        return """
            INSERT INTO \(literal: table) (\(raw: names.joined(separator: ", "))) VALUES (\(joined(values)))
            ON CONFLICT (\(raw: keyNames)) DO UPDATE SET \(raw: updates)
            """
    }
}
