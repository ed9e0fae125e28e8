import GatewayStore

/// The SQLite store as the source of `issue-gateway store copy`: its tables from `sqlite_master`,
/// their columns and foreign keys from `PRAGMA table_info` / `foreign_key_list`, rows by rowid in
/// batches, all read from one snapshot.
extension SQLiteStore: TableExporting {
    static let copyBatchRows = 5_000

    public func copyTables() throws(StoreError) -> [CopyTable] {
        try onReader { c throws(StoreError) in
            let names = try c.query("""
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid
                """) { $0.text(0) }
            var tables: [CopyTable] = []
            for name in names {
                let quoted = Self.quoted(name)
                let columns = try c.query("SELECT name FROM pragma_table_info(\(raw: quoted)) ORDER BY cid") { $0.text(0) }
                let references = try c.query("SELECT DISTINCT \"table\" FROM pragma_foreign_key_list(\(raw: quoted))") {
                    $0.text(0)
                }
                tables.append(CopyTable(name: name, columns: columns, references: references))
            }
            return CopyTable.dependencyOrdered(tables)
        }
    }

    public func forEachRowBatch(of table: CopyTable, _ batch: ([[String?]]) throws(StoreError) -> Void) throws(StoreError) {
        try onReader { c throws(StoreError) in
            let quoted = Self.quoted(table.name)
            let blobs = Set(try c.query("SELECT name FROM pragma_table_info(\(raw: quoted)) WHERE type = 'BLOB'") { $0.text(0) })
            // Bytes cross in PostgreSQL's BYTEA hex input form, which its text output repeats.
            let columns = table.columns.map { name in
                blobs.contains(name) ? "'\\x' || lower(hex(\(Self.identifier(name))))" : Self.identifier(name)
            }.joined(separator: ", ")
            let keyed = try c.exists("""
                SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = \(table.name) AND sql LIKE '%WITHOUT ROWID%'
                """)
            if keyed {
                let key = try c.query("SELECT name FROM pragma_table_info(\(raw: quoted)) WHERE pk > 0 ORDER BY pk") { $0.text(0) }
                try Self.forEachBatch(byKey: key, of: table, columns: columns, c, batch)
                return
            }
            var after = Int64.min
            while true {
                let rows = try c.query("""
                    SELECT rowid, \(raw: columns) FROM \(raw: Self.identifier(table.name)) WHERE rowid > \(after)
                    ORDER BY rowid LIMIT \(Self.copyBatchRows)
                    """) { row in
                    (row.int64(0), (1...table.columns.count).map { row.optionalText(Int32($0)) })
                }
                guard let last = rows.last else { return }
                try batch(rows.map(\.1))
                after = last.0
            }
        }
    }

    /// A table without rowids (`SQLSchemaWord.keyTableOptions`) in batches by its primary key,
    /// whose columns are text.
    private static func forEachBatch(byKey key: [String], of table: CopyTable, columns: String, _ c: SQLiteConnection,
                                     _ batch: ([[String?]]) throws(StoreError) -> Void) throws(StoreError) {
        let keyList = key.map(identifier).joined(separator: ", ")
        var after: [String]?
        while true {
            let beyond: SQL = after.map { "(\(raw: keyList)) > (\(SQL.joined($0.map { value -> SQL in "\(value)" })))" } ?? "TRUE"
            let rows = try c.query("""
                SELECT \(raw: keyList), \(raw: columns) FROM \(raw: identifier(table.name)) WHERE \(beyond)
                ORDER BY \(raw: keyList) LIMIT \(copyBatchRows)
                """) { row in
                ((0..<key.count).map { row.text(Int32($0)) },
                 (0..<table.columns.count).map { row.optionalText(Int32(key.count + $0)) })
            }
            guard let last = rows.last else { return }
            try batch(rows.map(\.1))
            after = last.0
        }
    }

    /// A name from this database's own catalog as an SQL string literal (for pragma functions).
    private static func quoted(_ name: String) -> String { "'" + name.replacingOccurrences(of: "'", with: "''") + "'" }

    static func identifier(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
