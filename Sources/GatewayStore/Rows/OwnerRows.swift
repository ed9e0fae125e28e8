import Entitle
import Wire

/// E4's rows: who owns each subscription or single purchase. The decision is `FactIngestor`'s.
extension SQLReading {
    public func owner(of subscription: SubscriptionKey) throws(StoreError) -> String? {
        try connection.queryFirst("SELECT account_id FROM owners WHERE \(RecordRows.subscriptionKey(subscription))") {
            $0.text(0)
        }
    }
}

extension SQLWriteTransaction {
    /// E4 across processes: a write unit of work that asks who owns a subscription takes the
    /// backend's ownership lock first (`SQLWriteHooks.ownershipLock`, in the same statement) and
    /// reads the row locked (`SQLDialect.lockingRead`), so units of work deciding one
    /// subscription's owner queue behind each other instead of both deciding from the same state;
    /// under `keep`, two processes can never both bind one subscription.
    public func owner(of subscription: SubscriptionKey) throws(StoreError) -> String? {
        let lock: SQL = hooks.ownershipLock(of: subscription).map { "\($0) AND " } ?? ""
        return try connection.queryFirst("""
            SELECT account_id FROM owners WHERE \(lock)\(RecordRows.subscriptionKey(subscription))\(connection.dialect.lockingRead)
            """) { $0.text(0) }
    }

    public func setOwner(_ accountId: String, of subscription: SubscriptionKey, at instant: Instant) throws(StoreError) {
        try connection.run(.upsert(into: "owners", key: RecordRows.subscriptionColumns(subscription),
                                   set: ["account_id": accountId, "bound_at": instant]))
    }
}
