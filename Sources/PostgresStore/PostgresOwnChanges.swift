import Synchronization

/// Change-log sequences this process committed and its change feed has not read yet: the caches
/// above were told of those changes by the code that made them (`ChangeFeed.madeHere`). Past
/// `kept` unread ones (no follower reads them: a CLI command) they are forgotten.
final class PostgresOwnChanges: Sendable {
    static let kept = 100_000
    private let sequences = Mutex<Set<Int64>>([])

    func note(_ committed: [Int64]) {
        guard !committed.isEmpty else { return }
        sequences.withLock { own in
            if own.count + committed.count > Self.kept { own.removeAll() }
            own.formUnion(committed)
        }
    }

    /// True (once) when this process committed the change-log entry `sequence`.
    func take(_ sequence: Int64) -> Bool { sequences.withLock { $0.remove(sequence) != nil } }
}
