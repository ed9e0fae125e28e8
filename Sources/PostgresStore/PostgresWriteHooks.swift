import Entitle
import GatewayStore

/// What several processes on one database add to the write statements written once: the change
/// log, E4's ownership lock, the history lock. One per write unit of work: the changes it records
/// go to its group, written to the change log when the group commits (decision 127); it keeps the
/// locks it took: a lock is held until the transaction ends or the unit's savepoint is rolled back
/// to (which ends the unit and these hooks with it), so each is taken once per unit of work.
final class PostgresWriteHooks: SQLWriteHooks {
    let group: PostgresGroup
    private var connection: PostgresConnection { group.connection }
    private var lockedSubscriptions: Set<SubscriptionKey> = []
    private var lockedHistories: Set<String> = []

    init(group: PostgresGroup) { self.group = group }

    /// No round trip: the group writes its units' changes at its commit (`recordChangesAndCommit`).
    func recordChange(_ change: StoreChange) throws(StoreError) { group.record(change) }

    /// The subscription's advisory lock, held until the transaction ends; `REPEATABLE READ` then
    /// makes a queued unit of work that read before the other's commit run again (its write of
    /// the owner row fails with 40001). An uncorrelated subquery: PostgreSQL evaluates it once, as
    /// the read's one-time filter, before the owner row is looked up (and when there is none).
    func ownershipLock(of subscription: SubscriptionKey) -> SQL? {
        guard lockedSubscriptions.insert(subscription).inserted else { return nil }
        return """
            (SELECT 1 FROM pg_advisory_xact_lock(hashtextextended(\(subscription.store.rawValue) || ':' || \
            \(subscription.environment.rawValue) || ':' || \(subscription.originalTransactionId), 0))) = 1
            """
    }

    /// `bigserial` alone does not keep an account's history in commit order: sequences are taken
    /// at insert and committed in any order. The account row is the per-account lock: taken
    /// (`FOR NO KEY UPDATE`, the lock a facts-version bump takes too, compatible with the
    /// foreign-key check of the insert) before the first sequence and held until the unit of work
    /// ends, so the next writer of that account's history takes its sequences after this one
    /// committed (under `REPEATABLE READ` it is run again on a fresh snapshot when this one
    /// changed the row). Every caller that also bumps the account's facts version has done so
    /// already; the change log's lock is taken only at the commit, after every row lock.
    /// The facts version's `UPDATE` holds the row's `FOR NO KEY UPDATE` lock: the history lock.
    func accountRowLocked(_ accountId: String) { lockedHistories.insert(accountId) }

    func lockHistory(ofAccount accountId: String) throws(StoreError) {
        guard lockedHistories.insert(accountId).inserted else { return }
        try connection.runLater("SELECT 1 FROM accounts WHERE id = \(accountId) FOR NO KEY UPDATE")
    }
}
