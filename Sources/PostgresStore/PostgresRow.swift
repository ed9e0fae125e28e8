import CLibPQ
import GatewayStore
import Wire

/// One row of a query result, read by column index from libpq's text format.
struct PGRow {
    let result: OpaquePointer
    let row: Int32
    let connection: PostgresConnection

    func isNull(_ column: Int32) -> Bool { PQgetisnull(result, row, column) == 1 }
    func text(_ column: Int32) -> String {
        guard let p = PQgetvalue(result, row, column) else { return "" }
        return String(cString: p)
    }
    func int64(_ column: Int32) -> Int64 { Int64(text(column)) ?? 0 }
    func int(_ column: Int32) -> Int { Int(int64(column)) }
    /// BOOLEAN's text output is `t` or `f`.
    func bool(_ column: Int32) -> Bool { text(column) == "t" }
    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
    func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }
    func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : int(column) }
    func instant(_ column: Int32) -> Instant { Instant(millisecondsSinceEpoch: int64(column)) }
    func optionalInstant(_ column: Int32) -> Instant? { optionalInt64(column).map(Instant.init(millisecondsSinceEpoch:)) }

    /// A value this gateway cannot have written: logged, and the unit of work fails.
    func corrupt(_ detail: String) -> StoreError { connection.corrupt(detail) }

    /// A stored enumeration's raw value, or `corrupt` when it names no case.
    func decode<T: RawRepresentable<String>>(_ type: T.Type, _ column: Int32, of id: String) throws(StoreError) -> T {
        let raw = text(column)
        guard let value = T(rawValue: raw) else { throw corrupt("row \(id): unknown \(T.self) \(raw)") }
        return value
    }
}
