import GatewayStore
import Wire

/// The change log (`change_log`): one row per change other processes' caches must hear of,
/// written in the transaction that makes the change, with a `NOTIFY` that PostgreSQL delivers
/// when it commits.
enum PostgresChangeLog {
    /// Where a schema's notifications go (`channel(on:)`); the payload is empty (a reader reads
    /// the log, not the payload).
    static let channelPrefix = "issue_gateway_changes_"

    /// The channel of the connection's schema: deployments in other schemas of the database
    /// notify on channels of their own, so their commits wake no follower here. A name PostgreSQL
    /// takes as it is (lower-case letters, digits and `_`, under 64 bytes), for `LISTEN`.
    static func channel(on connection: PostgresConnection) throws(StoreError) -> String {
        let hash = try connection.queryFirst("SELECT left(md5(current_schema()), 16)") { $0.text(0) } ?? ""
        return channelPrefix + hash
    }
    /// An arbitrary constant naming the change log's advisory lock.
    static let orderLock: Int64 = 0x6973_7375_6567_7732

    static func columns(_ change: StoreChange) -> (kind: String, key: String) {
        switch change {
        case .catalog: return ("catalog", "")
        case .accountFacts(let id): return ("account", id)
        case .apiKey(let id): return ("key", id)
        case .accountEnded(let id): return ("account-ended", id)
        case .session(let id): return ("session", id)
        }
    }

    static func change(_ row: PGRow) throws(StoreError) -> SequencedChange {
        let change: StoreChange
        switch row.text(1) {
        case "catalog": change = .catalog
        case "account": change = .accountFacts(accountId: row.text(2))
        case "key": change = .apiKey(keyId: row.text(2))
        case "account-ended": change = .accountEnded(accountId: row.text(2))
        case "session": change = .session(sessionId: row.text(2))
        case let kind: throw row.corrupt("change \(row.int64(0)): unknown kind \(kind)")
        }
        return SequencedChange(sequence: row.int64(0), change: change)
    }
}

extension PostgresConnection {
    /// Writes a group's changes and commits it (decision 127), in one round trip, and returns
    /// their sequences. Sequences are handed out in commit order: the advisory lock, held until
    /// this transaction ends, is taken before any `nextval`, so a transaction that takes a sequence
    /// after another commits after it. A reader that has seen sequence n has seen every change
    /// before n: no gap is ever filled later. The lock is the transaction's last: it is taken
    /// once the group's units have taken every row lock they need, and its holder only writes
    /// these rows and commits, with no round trip between, so it never waits on a row or on this
    /// process while others wait on it, and groups of this process and of others run their units
    /// side by side, meeting only at this lock.
    /// PostgreSQL delivers one notification per transaction for repeated identical ones (NOTIFY).
    /// Rows are written a chunk a statement (`SQLRowChunks`), each change once.
    func recordChangesAndCommit(_ changes: [StoreChange], channel: String) throws(StoreError) -> [Int64] {
        var unique: [StoreChange] = [], seen: Set<StoreChange> = []
        for change in changes where seen.insert(change).inserted { unique.append(change) }
        guard !unique.isEmpty else {
            try execute("COMMIT")
            return []
        }
        try runLater("SELECT pg_advisory_xact_lock(\(PostgresChangeLog.orderLock)), pg_notify(\(channel), '')")
        let chunks = SQLRowChunks.chunks(unique)
        var sequences: [Int64] = []
        for (index, chunk) in chunks.enumerated() {
            let rows = SQLRowChunks.values(chunk) { change in
                let (kind, key) = PostgresChangeLog.columns(change)
                return "\(kind), \(key), (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT"
            }
            let insert: SQL = "INSERT INTO change_log (kind, key, committed_at) VALUES \(rows) RETURNING sequence"
            sequences += index == chunks.count - 1
                ? try query(insert, then: "COMMIT") { $0.int64(0) }
                : try query(insert) { $0.int64(0) }
        }
        return sequences
    }

    func latestChangeSequence() throws(StoreError) -> Int64 {
        try queryFirst("SELECT COALESCE(MAX(sequence), 0) FROM change_log") { $0.int64(0) } ?? 0
    }

    func changes(after sequence: Int64, limit: Int) throws(StoreError) -> ChangeBatch {
        let changes = try query("""
            SELECT sequence, kind, key FROM change_log WHERE sequence > \(sequence) ORDER BY sequence LIMIT \(max(1, limit))
            """) { row throws(StoreError) in try PostgresChangeLog.change(row) }
        let oldest = try queryFirst("SELECT MIN(sequence) FROM change_log") { $0.optionalInt64(0) } ?? nil
        return ChangeBatch(changes: changes, oldestKept: oldest)
    }

    func pruneChanges(before instant: Instant) throws(StoreError) {
        try run("DELETE FROM change_log WHERE committed_at < \(instant)")
    }
}
