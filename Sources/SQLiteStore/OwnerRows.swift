import Entitle
import GatewayStore
import Wire

/// E4's rows: who owns each subscription or single purchase. The decision is `FactIngestor`'s.
extension SQLiteReading {
    func owner(of subscription: SubscriptionKey) throws(StoreError) -> String? {
        try connection.queryFirst("SELECT account_id FROM owners WHERE environment = ? AND original_transaction_id = ?",
                                  FactRows.key(subscription)) { $0.text(0) }
    }
}

extension SQLiteWriteTransaction {
    func setOwner(_ accountId: String, of subscription: SubscriptionKey, at instant: Instant) throws(StoreError) {
        try connection.run("""
            INSERT OR REPLACE INTO owners (environment, original_transaction_id, account_id, bound_at)
            VALUES (?, ?, ?, ?)
            """, FactRows.key(subscription) + [.text(accountId), .integer(instant.millisecondsSinceEpoch)])
    }
}
