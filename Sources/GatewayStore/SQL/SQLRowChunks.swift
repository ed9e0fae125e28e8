/// Many rows written by few statements: a batch is split into chunks of the fixed `sizes`
/// (largest first), each written by one multi-row statement (`VALUES (…), (…)`). On PostgreSQL
/// every statement is a round trip and a portal in the server, about as dear as the row's own
/// work for a small update; the sizes are fixed so that a backend preparing each statement text
/// once keeps four texts a kind, not one per batch length.
public enum SQLRowChunks {
    /// 64 rows of seven values stay far below both backends' parameter limits (SQLite 32,766,
    /// PostgreSQL 65,535).
    public static let sizes = [64, 16, 4, 1]

    /// `rows` in order, as consecutive chunks whose lengths are among `sizes`.
    public static func chunks<Row>(_ rows: [Row]) -> [ArraySlice<Row>] {
        var result: [ArraySlice<Row>] = []
        var start = rows.startIndex
        while start < rows.endIndex {
            let remaining = rows.endIndex - start
            let size = sizes.first { $0 <= remaining } ?? 1
            result.append(rows[start..<(start + size)])
            start += size
        }
        return result
    }

    /// Ids for `IN (…)` lists of at most `maxIds` each, every list padded to a power of two with
    /// its last id (naming a row twice changes nothing), so a connection keeps a few statement
    /// texts prepared rather than one per length.
    public static func idLists(_ ids: [String], maxIds: Int = 128) -> [SQL] {
        stride(from: 0, to: ids.count, by: max(1, maxIds)).map { start in
            var list = Array(ids[start..<(start + min(max(1, maxIds), ids.count - start))])
            while list.count & (list.count - 1) != 0 { list.append(list[list.count - 1]) }
            return SQL.joined(list.map { id -> SQL in "\(id)" })
        }
    }

    /// `(…), (…)`: each row's values as one parenthesized tuple, for a `VALUES` list.
    public static func values<Row>(_ rows: ArraySlice<Row>, _ tuple: (Row) -> SQL) -> SQL {
        SQL.joined(rows.map { "(\(tuple($0)))" })
    }
}
