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

/// A write unit of work: a `REPEATABLE READ` transaction. Every race the rules above care
/// about (two ingests of one fact, two owners for one subscription, one notification or code
/// taken twice, two edits of one issue) ends in a write to the same row, which PostgreSQL refuses
/// to the later transaction with a serialization failure (40001); the store then runs the whole
/// unit of work again, on a fresh snapshot. (`SERIALIZABLE` would add predicate locks, whose
/// page-level false conflicts on small tables made unrelated ingests fail each other.)
struct PostgresWriteTransaction: PostgresReading, WriteTransaction {
    let connection: PostgresConnection
    /// The change-log sequences this unit of work wrote (`recordChange`).
    let recorded = RecordedChanges()
}

/// The change-log sequences one unit of work wrote; handed to the store once it committed.
final class RecordedChanges {
    var sequences: [Int64] = []
}
