import GatewayStore

/// The PostgreSQL store as the destination of `issue-gateway store copy`: every table of the
/// source in one transaction, into a database that holds no data yet; committed only when each
/// table read back gives the source's count and checksum.
extension PostgresStore: TableImporting {
    /// Tables the migrations fill (the catalog revision): replaced by the source's rows.
    static let seededTables: Set<String> = ["meta"]
    static let copyBatchRows = 5_000

    public func importEverything(from source: any TableExporting) throws(TableCopyError) -> [CopiedTable] {
        let outcome: Result<[CopiedTable], TableCopyError>
        do {
            let tables = try source.copyTables()
            outcome = try pool.withConnection { c throws(StoreError) in
                try c.transaction("BEGIN", keep: { if case .success = $0 { true } else { false } }) { () throws(StoreError) in
                    try Self.importTables(tables, from: source, into: c)
                }
            }
        } catch {
            throw .store(error)
        }
        return try outcome.get()
    }

    private static func importTables(_ tables: [CopyTable], from source: any TableExporting,
                                     into c: PostgresConnection) throws(StoreError) -> Result<[CopiedTable], TableCopyError> {
        for table in tables {
            let exists = try c.queryFirst("""
                SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = \(table.name)
                """) { _ in true } ?? false
            guard exists else { return .failure(.missingTable(table.name)) }
            if seededTables.contains(table.name) {
                try c.run("DELETE FROM \(raw: identifier(table.name))")
            } else if try c.exists("SELECT 1 FROM \(raw: identifier(table.name)) LIMIT 1") {
                return .failure(.notEmpty(table: table.name))
            }
        }
        var copied: [CopiedTable] = []
        for table in tables {
            let columns = table.columns.map(identifier).joined(separator: ", ")
            let insert: SQL = "INSERT INTO \(raw: identifier(table.name)) (\(raw: columns)) VALUES "
            var sent = TableChecksum()
            try source.forEachRowBatch(of: table) { rows throws(StoreError) in
                for row in rows {
                    try sent.add(row)
                    try c.run(insert + "(\(SQL.joined(row.map { value -> SQL in "\(value)" })))")
                }
            }
            try advanceSequences(of: table, c)
            let stored = try checksum(of: table, c)
            guard stored == sent else { return .failure(.mismatch(table: table.name, source: sent, destination: stored)) }
            copied.append(CopiedTable(name: table.name, source: sent, destination: stored))
        }
        return .success(copied)
    }

    /// Rows copied with their own `bigserial` values (history's sequence, the outbox's seq, push
    /// jobs' ids) leave the column's sequence where it was: each is moved past the largest value
    /// copied, so the next row the gateway writes follows them (a history cursor a client holds
    /// stays valid and the next event comes after it).
    private static func advanceSequences(of table: CopyTable, _ c: PostgresConnection) throws(StoreError) {
        for column in table.columns {
            guard let sequence = try c.queryFirst("SELECT pg_get_serial_sequence(\(identifier(table.name)), \(column))",
                                                  { $0.optionalText(0) }) ?? nil
            else { continue }
            try c.run("""
                SELECT setval(\(sequence)::regclass, COALESCE(MAX(\(raw: identifier(column))), 0) + 1, false)
                FROM \(raw: identifier(table.name))
                """)
        }
    }

    /// The table's rows as stored, in the source's text form (booleans as 0 or 1), read in
    /// batches through a cursor.
    private static func checksum(of table: CopyTable, _ c: PostgresConnection) throws(StoreError) -> TableChecksum {
        let booleans = Set(try c.query("""
            SELECT column_name FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = \(table.name) AND data_type = 'boolean'
            """) { $0.text(0) })
        let columns = table.columns.map { name in
            booleans.contains(name) ? "(\(identifier(name))::int)::text" : "\(identifier(name))::text"
        }.joined(separator: ", ")
        try c.execute("DECLARE copy_check NO SCROLL CURSOR FOR SELECT \(columns) FROM \(identifier(table.name))")
        var checksum = TableChecksum()
        while true {
            let rows = try c.queryUnprepared("FETCH \(copyBatchRows) FROM copy_check") { row in
                (0..<table.columns.count).map { row.optionalText(Int32($0)) }
            }
            for row in rows { try checksum.add(row) }
            if rows.count < copyBatchRows { break }
        }
        try c.execute("CLOSE copy_check")
        return checksum
    }

    private static func identifier(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
