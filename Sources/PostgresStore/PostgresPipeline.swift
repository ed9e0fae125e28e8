import CLibPQ
import Foundation

/// A prepared statement's execution waiting to be sent: its name on the connection, its values in
/// libpq's text format (nil for NULL), and its text for the log.
struct PostgresExecution {
    let name: String
    let values: [String?]
    let text: String
}

/// Several prepared statements sent in one round trip: libpq's pipeline mode (PostgreSQL 14+,
/// libpq "Pipeline Mode"). They run in order, as if sent one by one; after one fails, the server
/// skips the rest up to the pipeline's sync (`PGRES_PIPELINE_ABORTED`), and the transaction is left
/// failed, as after a failed statement sent alone.
enum PostgresPipeline {
    /// Sends `executions` and one sync, and returns each one's result, in order, or nil where none
    /// came (the connection lost). The caller clears the results. Leaves the connection out of
    /// pipeline mode unless it was lost on the way.
    static func exchange(_ executions: [PostgresExecution], on conn: OpaquePointer) -> [OpaquePointer?] {
        // libpq refuses only a connection that is not idle; then each is sent alone, in order, and
        // none after one that failed, as the server would skip them.
        guard PQenterPipelineMode(conn) == 1 else { return oneByOne(executions, on: conn) }
        var sent = 0
        for execution in executions {
            let queued = PostgresConnection.withOptionalCStrings(execution.values) { pointers in
                PQsendQueryPrepared(conn, execution.name, Int32(execution.values.count), pointers, nil, nil, 0)
            }
            guard queued == 1 else { break }
            sent += 1
        }
        guard sent == executions.count, PQpipelineSync(conn) == 1 else {
            return executions.map { _ in nil }
        }
        var results: [OpaquePointer?] = []
        results.reserveCapacity(executions.count)
        for _ in executions {
            let result = PQgetResult(conn)
            results.append(result)
            guard result != nil else { break }
            // A statement's results end with a null one.
            while let extra = PQgetResult(conn) { PQclear(extra) }
        }
        if results.count == executions.count, let sync = PQgetResult(conn) {
            PQclear(sync)  // PGRES_PIPELINE_SYNC
            _ = PQexitPipelineMode(conn)
        }
        while results.count < executions.count { results.append(nil) }
        return results
    }

    private static func oneByOne(_ executions: [PostgresExecution], on conn: OpaquePointer) -> [OpaquePointer?] {
        var results: [OpaquePointer?] = []
        for execution in executions {
            let result = alone(execution, on: conn)
            results.append(result)
            let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
            guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { break }
        }
        while results.count < executions.count { results.append(nil) }
        return results
    }

    /// One statement sent and its result awaited (`PQexecPrepared`); the caller clears it.
    static func alone(_ execution: PostgresExecution, on conn: OpaquePointer) -> OpaquePointer? {
        PostgresConnection.withOptionalCStrings(execution.values) { pointers in
            PQexecPrepared(conn, execution.name, Int32(execution.values.count), pointers, nil, nil, 0)
        }
    }

    /// True once the connection is back to sending statements one at a time.
    static func isOff(_ conn: OpaquePointer) -> Bool { PQpipelineStatus(conn) == PQ_PIPELINE_OFF }
}
