import GatewayStore

/// Row access on one connection inside an open transaction. The read half is shared by both
/// transaction kinds (a write unit of work reads its own changes).
protocol PostgresReading: ReadTransaction {
    var connection: PostgresConnection { get }
}

/// A read unit of work: `REPEATABLE READ READ ONLY`, one snapshot for every statement in it.
struct PostgresReadTransaction: PostgresReading {
    let connection: PostgresConnection
}

/// A write unit of work: a `SERIALIZABLE` transaction, so that units of work running at once in
/// several processes have the effect of some order of them (a conflict makes one fail with 40001
/// and run again).
struct PostgresWriteTransaction: PostgresReading, WriteTransaction {
    let connection: PostgresConnection
    /// The change-log sequences this unit of work wrote (`recordChange`).
    let recorded = RecordedChanges()
}

/// The change-log sequences one unit of work wrote; handed to the store once it committed.
final class RecordedChanges {
    var sequences: [Int64] = []
}
