import CLibPQ
import GatewayStore
import Wire

/// One row of a query result, read by column index from libpq's text format (the accessors
/// `RecordRows` maps records with).
struct PGRow: StoredRow {
    let result: OpaquePointer
    let row: Int32
    let connection: PostgresConnection

    func isNull(_ column: Int32) -> Bool { PQgetisnull(result, row, column) == 1 }
    func text(_ column: Int32) -> String {
        guard let p = PQgetvalue(result, row, column) else { return "" }
        return String(cString: p)
    }
    func int64(_ column: Int32) -> Int64 { Int64(text(column)) ?? 0 }
    /// BYTEA's text output in the hex format (`\\x…`, the server's default `bytea_output`).
    func bytes(_ column: Int32) -> [UInt8] {
        guard let p = PQgetvalue(result, row, column) else { return [] }
        return PostgresBytes.fromHexOutput(UnsafeRawBufferPointer(start: p, count: Int(PQgetlength(result, row, column))))
    }
    /// BOOLEAN's text output is `t` or `f`.
    func bool(_ column: Int32) -> Bool { text(column) == "t" }

    /// A value this gateway cannot have written: logged, and the unit of work fails.
    func corrupt(_ detail: String) -> StoreError { connection.corrupt(detail) }
}
