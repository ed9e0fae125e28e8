import Wire

/// One result row as a backend reads it, by column index: what the record mappings of
/// `RecordRows` need, so each record is read from its columns once for every backend.
public protocol StoredRow: SendableMetatype {
    func isNull(_ column: Int32) -> Bool
    func text(_ column: Int32) -> String
    /// Appends the column's text as UTF-8 bytes: a read of many rows compares and keeps bytes
    /// without making a `String` of each value.
    func appendUTF8(_ column: Int32, to bytes: inout [UInt8])
    func int64(_ column: Int32) -> Int64
    func bool(_ column: Int32) -> Bool
    /// A `BLOB` (SQLite) or `BYTEA` (PostgreSQL) column's bytes.
    func bytes(_ column: Int32) -> [UInt8]
    /// A value this gateway cannot have written: the backend logs it and the unit of work fails.
    func corrupt(_ detail: String) -> StoreError
}

extension StoredRow {
    public func appendUTF8(_ column: Int32, to bytes: inout [UInt8]) { bytes.append(contentsOf: text(column).utf8) }

    public func int(_ column: Int32) -> Int { Int(int64(column)) }
    public func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
    public func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }
    public func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : int(column) }
    public func instant(_ column: Int32) -> Instant { Instant(millisecondsSinceEpoch: int64(column)) }
    public func optionalInstant(_ column: Int32) -> Instant? {
        optionalInt64(column).map(Instant.init(millisecondsSinceEpoch:))
    }

    /// A stored enumeration's raw value, or `corrupt` when it names no case. Always inlined: a
    /// mapping (`RecordRows.transaction`) names the enumeration, so inlined its `init(rawValue:)`
    /// is a direct call, where a call of this generic function would look up `T?`'s metadata at
    /// run time on every value (the mappings run unspecialised, generic over the row).
    @inline(__always)
    public func decode<T: RawRepresentable<String>>(_ type: T.Type, _ column: Int32, of id: String) throws(StoreError) -> T {
        let raw = text(column)
        guard let value = T(rawValue: raw) else { throw unknownValue(T.self, raw, of: id) }
        return value
    }

    @inline(never)
    private func unknownValue<T>(_ type: T.Type, _ raw: String, of id: String) -> StoreError {
        corrupt("row \(id): unknown \(T.self) \(raw)")
    }
}
