extension SharedMigration {
    /// A column of a table a step creates: its name and its definition (type and constraints).
    public typealias Column = (name: String, definition: SharedMigration)

    /// `table` rebuilt under a new primary key, which SQLite cannot alter in place: the new table
    /// is created beside the old one with the `added` columns and then the `kept` ones, filled
    /// with every old row (`kept` copied by name, `added` taking their defaults), the old table
    /// dropped and the new one renamed into its place. PostgreSQL runs the same statements. The
    /// old table's indexes go with it: the step creates again those it still needs.
    public static func rebuild(_ table: String, adding added: [Column], keeping kept: [Column],
                               primaryKey: [String]) -> SharedMigration {
        let rebuilt = "\(table)_rebuilt"
        let copied = kept.map(\.name).joined(separator: ", ")
        var definitions: SharedMigration = ""
        for column in added + kept {
            definitions = "\(definitions)\(raw: column.name) \(column.definition), "
        }
        return """
            CREATE TABLE \(raw: rebuilt) (\(definitions)PRIMARY KEY (\(raw: primaryKey.joined(separator: ", "))))\(.tableOptions);
            INSERT INTO \(raw: rebuilt) (\(raw: copied)) SELECT \(raw: copied) FROM \(raw: table);
            DROP TABLE \(raw: table);
            ALTER TABLE \(raw: rebuilt) RENAME TO \(raw: table);

            """
    }
}
