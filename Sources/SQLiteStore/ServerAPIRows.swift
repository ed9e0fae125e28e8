import Entitle
import GatewayStore
import Wire

/// What the App Store Server API work keeps: subscriptions fetched whole, and the instants of
/// background work's last success (`service_marks`).
extension SQLiteReading {
    func isHistoryFetched(_ subscription: SubscriptionKey) throws(StoreError) -> Bool {
        try connection.queryFirst("""
            SELECT 1 FROM fetched_histories WHERE environment = ? AND original_transaction_id = ?
            """, FactRows.key(subscription)) { _ in true } ?? false
    }

    func serviceMark(_ name: String) throws(StoreError) -> Instant? {
        try connection.queryFirst("SELECT at FROM service_marks WHERE name = ?", [.text(name)]) { $0.instant(0) }
    }
}

extension SQLiteWriteTransaction {
    func markHistoryFetched(_ subscription: SubscriptionKey, at instant: Instant) throws(StoreError) {
        try connection.run("""
            INSERT OR IGNORE INTO fetched_histories (environment, original_transaction_id, fetched_at) VALUES (?, ?, ?)
            """, FactRows.key(subscription) + [.integer(instant.millisecondsSinceEpoch)])
    }

    func setServiceMark(_ name: String, at instant: Instant) throws(StoreError) {
        try connection.run("INSERT OR REPLACE INTO service_marks (name, at) VALUES (?, ?)",
                           [.text(name), .integer(instant.millisecondsSinceEpoch)])
    }
}
