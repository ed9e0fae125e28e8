import Entitle
import GatewayStore
import Wire

/// E4's rows: who owns each subscription or single purchase. The decision is `FactIngestor`'s.
extension PostgresReading {
    func owner(of subscription: SubscriptionKey) throws(StoreError) -> String? {
        try connection.queryFirst("SELECT account_id FROM owners WHERE environment = $1 AND original_transaction_id = $2",
                                  FactRows.key(subscription)) { $0.text(0) }
    }
}

extension PostgresWriteTransaction {
    /// E4 across processes: a write unit of work that asks who owns a subscription takes the
    /// subscription's advisory lock first (held until it commits), so units of work deciding one
    /// subscription's owner queue behind each other instead of both deciding from the same state;
    /// `REPEATABLE READ` then makes a queued one that read before the other's commit run again
    /// (its write of the owner row fails with 40001).
    /// Under `keep`, two processes can never both bind one subscription.
    func owner(of subscription: SubscriptionKey) throws(StoreError) -> String? {
        try connection.run("SELECT pg_advisory_xact_lock(hashtextextended($1 || ':' || $2, 0))",
                           FactRows.key(subscription))
        return try connection.queryFirst("""
            SELECT account_id FROM owners WHERE environment = $1 AND original_transaction_id = $2 FOR UPDATE
            """, FactRows.key(subscription)) { $0.text(0) }
    }

    func setOwner(_ accountId: String, of subscription: SubscriptionKey, at instant: Instant) throws(StoreError) {
        try connection.run("""
            INSERT INTO owners (environment, original_transaction_id, account_id, bound_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT (environment, original_transaction_id) DO UPDATE SET
                account_id = excluded.account_id, bound_at = excluded.bound_at
            """, FactRows.key(subscription) + [.text(accountId), .instant(instant)])
    }
}
