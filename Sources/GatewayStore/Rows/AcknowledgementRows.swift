import Wire

/// Google Play acknowledgements still owed (E28): `googleplay_acknowledgements`.
extension SQLReading {
    public func pendingAcknowledgements(dueBy instant: Instant, limit: Int) throws(StoreError) -> [PendingAcknowledgement] {
        try connection.query("""
            SELECT package_name, purchase_token, product_id, is_subscription, first_seen, attempts, next_attempt
            FROM googleplay_acknowledgements WHERE next_attempt <= \(instant)
            ORDER BY next_attempt, package_name, purchase_token LIMIT \(max(0, limit))
            """) { row in
            PendingAcknowledgement(packageName: row.text(0), purchaseToken: row.text(1), productId: row.text(2),
                                   isSubscription: row.bool(3), firstSeen: row.instant(4), attempts: row.int(5),
                                   nextAttempt: row.instant(6))
        }
    }

    public func unacknowledgedCount(seenBefore instant: Instant) throws(StoreError) -> Int {
        try connection.queryFirst("SELECT COUNT(*) FROM googleplay_acknowledgements WHERE first_seen < \(instant)") { $0.int(0) } ?? 0
    }
}

extension SQLWriteTransaction {
    /// Records a purchase to acknowledge; one already owed keeps its first sighting and schedule.
    public func insertPendingAcknowledgement(_ pending: PendingAcknowledgement) throws(StoreError) {
        try connection.run("""
            INSERT INTO googleplay_acknowledgements (package_name, purchase_token, product_id, is_subscription, first_seen,
                attempts, next_attempt)
            VALUES (\(pending.packageName), \(pending.purchaseToken), \(pending.productId), \(pending.isSubscription),
                    \(pending.firstSeen), \(Int64(pending.attempts)), \(pending.nextAttempt))
            ON CONFLICT DO NOTHING
            """)
    }

    public func rescheduleAcknowledgement(_ pending: PendingAcknowledgement) throws(StoreError) {
        try connection.run("""
            UPDATE googleplay_acknowledgements SET attempts = \(Int64(pending.attempts)), next_attempt = \(pending.nextAttempt)
            WHERE package_name = \(pending.packageName) AND purchase_token = \(pending.purchaseToken)
            """)
    }

    public func deletePendingAcknowledgement(packageName: String, purchaseToken: String) throws(StoreError) {
        try connection.run("""
            DELETE FROM googleplay_acknowledgements WHERE package_name = \(packageName) AND purchase_token = \(purchaseToken)
            """)
    }
}
