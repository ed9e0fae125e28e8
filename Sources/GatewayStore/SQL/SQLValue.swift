import Wire

/// A value bound to a statement parameter: only the types the schemas use. Instants are bound as
/// milliseconds since 1970 (`INTEGER` in SQLite, `BIGINT` in PostgreSQL); a boolean becomes 0 or 1
/// in SQLite, which has no boolean type, and `true`/`false` in PostgreSQL. Bytes are a `BLOB` in
/// SQLite and a `BYTEA` in PostgreSQL.
public enum SQLValue: Sendable, Equatable {
    case integer(Int64)
    case text(String)
    case boolean(Bool)
    case bytes([UInt8])
    case null
}

/// A Swift value that binds as one `SQLValue`: what `SQL` interpolation takes as a parameter.
public protocol SQLBindable {
    var sqlValue: SQLValue { get }
}

extension SQLValue: SQLBindable {
    public var sqlValue: SQLValue { self }
}

extension String: SQLBindable {
    public var sqlValue: SQLValue { .text(self) }
}

extension Int64: SQLBindable {
    public var sqlValue: SQLValue { .integer(self) }
}

extension Int: SQLBindable {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Bool: SQLBindable {
    public var sqlValue: SQLValue { .boolean(self) }
}

extension [UInt8]: SQLBindable {
    public var sqlValue: SQLValue { .bytes(self) }
}

extension Instant: SQLBindable {
    public var sqlValue: SQLValue { .integer(millisecondsSinceEpoch) }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    // A pattern, not `map(\.sqlValue)`: a key path in this generic context is instantiated at
    // run time on every call, and every optional column of every row goes through here.
    public var sqlValue: SQLValue {
        if case .some(let value) = self { return value.sqlValue }
        return .null
    }
}
