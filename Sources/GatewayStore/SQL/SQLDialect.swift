/// The SQL a backend speaks, where the two differ. Every statement is written once; where a
/// spelling must differ, both spellings sit side by side here, never in two files.
public enum SQLDialect: Sendable, Equatable {
    case sqlite
    case postgres

    /// The placeholder of the `number`th parameter (from 1): SQLite's anonymous `?` is numbered
    /// in order of appearance, which is the order `SQL` binds its values in.
    public func placeholder(_ number: Int) -> String {
        switch self {
        case .sqlite: return "?"
        case .postgres: return "$\(number)"
        }
    }

    /// Appended to a SELECT that reads a row the unit of work will decide on: PostgreSQL locks
    /// it until commit (several processes write); SQLite's single writer holds the database
    /// already and has no such clause.
    public var lockingRead: SQL {
        switch self {
        case .sqlite: return ""
        case .postgres: return " FOR UPDATE"
        }
    }

    /// `lockingRead` passing over rows another unit of work has locked: workers in several
    /// processes each take their own rows of a queue. SQLite has one writer and no such clause.
    public var lockingReadSkippingLocked: SQL {
        switch self {
        case .sqlite: return ""
        case .postgres: return " FOR UPDATE SKIP LOCKED"
        }
    }

    /// Byte-wise text order (SQLite's default collation; PostgreSQL's "C"), for paging by a column
    /// created with the database's collation.
    public var byteOrder: SQL {
        switch self {
        case .sqlite: return " COLLATE BINARY"
        case .postgres: return " COLLATE \"C\""
        }
    }

    /// True when `element` is one of the ids of `list`, ids joined by `RecordRows.idSeparator`
    /// (ids never hold it, so a separator-framed search is exact).
    public func list(_ list: SQL, contains element: SQL) -> SQL {
        let separator = String(RecordRows.idSeparator)
        switch self {
        case .sqlite:
            return "instr(\(separator) || \(list) || \(separator), \(separator) || \(element) || \(separator)) > 0"
        case .postgres:
            return "\(element) = ANY (string_to_array(\(list), \(separator)))"
        }
    }

    /// True when `list` (ids joined by `RecordRows.idSeparator`) holds any of `elements`; false
    /// for none.
    public func list(_ list: SQL, containsAnyOf elements: [String]) -> SQL {
        guard let first = elements.first else { return "FALSE" }
        return elements.dropFirst().reduce("(\(self.list(list, contains: "\(first)"))") { sql, element in
            "\(sql) OR \(self.list(list, contains: "\(element)"))"
        } + ")"
    }

    /// A column type or table clause of a schema written once (`SharedMigration`).
    public func spelling(_ word: SQLSchemaWord) -> String {
        switch (word, self) {
        case (.text, _): return "TEXT"
        case (.key, .sqlite): return "TEXT"
        case (.key, .postgres): return "TEXT COLLATE \"C\""
        case (.integer, .sqlite), (.instant, .sqlite), (.boolean, .sqlite): return "INTEGER"
        case (.integer, .postgres), (.instant, .postgres): return "BIGINT"
        case (.boolean, .postgres): return "BOOLEAN"
        case (.serialPrimaryKey, .sqlite): return "INTEGER PRIMARY KEY AUTOINCREMENT"
        case (.serialPrimaryKey, .postgres): return "BIGSERIAL PRIMARY KEY"
        case (.tableOptions, .sqlite): return " STRICT"
        case (.keyTableOptions, .sqlite): return " STRICT, WITHOUT ROWID"
        case (.keyTableOptions, .postgres): return ""
        case (.bytes, .sqlite): return "BLOB"
        case (.bytes, .postgres): return "BYTEA"
        case (.currentInstant, .sqlite): return "(CAST(strftime('%s', 'now') AS INTEGER) * 1000)"
        case (.currentInstant, .postgres): return "(CAST(EXTRACT(EPOCH FROM now()) AS BIGINT) * 1000)"
        case (.tableOptions, .postgres): return ""
        }
    }
}

/// What a schema written once names and each dialect spells its own way (`SQLDialect.spelling`).
public enum SQLSchemaWord: Sendable {
    /// Text compared as the database compares it (titles, bodies).
    case text
    /// Text compared byte-wise: ids, keys, anything ordered or joined on.
    case key
    case integer
    /// Milliseconds since 1970.
    case instant
    /// Written and read as `Bool` (`TRUE`/`FALSE` literals work on both).
    case boolean
    /// An integer key the database assigns in insert order.
    case serialPrimaryKey
    /// After a `CREATE TABLE`'s closing parenthesis (SQLite's tables are `STRICT`).
    case tableOptions
    /// In place of `tableOptions` for a narrow table read by its primary key alone: SQLite
    /// stores it as that key's b-tree, without a rowid table beside it ("Clustered Indexes and
    /// the WITHOUT ROWID Optimization").
    case keyTableOptions
    /// Bytes (`BLOB`, `BYTEA`), bound and read as `[UInt8]`.
    case bytes
    /// The instant the step runs, in milliseconds since 1970 (whole seconds), for a backfilled
    /// column that means "now" (a migrated session was last seen when the gateway was upgraded).
    case currentInstant
}
