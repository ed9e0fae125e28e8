import Wire

/// Google Play subscription snapshots (E25): `googleplay_snapshots`, one row per change the
/// gateway saw in what Google answers for a token.
extension SQLReading {
    /// The newest `limit` snapshots of a token, oldest first.
    public func playSnapshots(packageName: String, purchaseToken: String, limit: Int) throws(StoreError) -> [PlaySnapshotRecord] {
        try newestPlaySnapshots(packageName: packageName, purchaseToken: purchaseToken, limit: limit).reversed()
    }

    private func newestPlaySnapshots(packageName: String, purchaseToken: String, limit: Int) throws(StoreError) -> [PlaySnapshotRecord] {
        try connection.query("""
            SELECT observed_at, state, latest_order_id, expiry_time, start_time, product_id, linked_purchase_token,
                   cancellation, revoked_at
            FROM googleplay_snapshots WHERE package_name = \(packageName) AND purchase_token = \(purchaseToken)
            ORDER BY observed_at DESC LIMIT \(max(0, limit))
            """) { row in
            PlaySnapshotRecord(packageName: packageName, purchaseToken: purchaseToken, observedAt: row.instant(0),
                               state: row.text(1), latestOrderId: row.optionalText(2), expiryTime: row.optionalInstant(3),
                               startTime: row.optionalInstant(4), productId: row.optionalText(5),
                               linkedPurchaseToken: row.optionalText(6), cancellation: row.optionalText(7),
                               revokedAt: row.optionalInstant(8))
        }
    }
}

extension SQLWriteTransaction {
    /// Keeps `snapshot` unless the token's newest kept one says the same (which keeps the earlier
    /// instant, the one E25 reads); true when it was kept.
    @discardableResult
    public func recordPlaySnapshot(_ s: PlaySnapshotRecord) throws(StoreError) -> Bool {
        if let newest = try playSnapshots(packageName: s.packageName, purchaseToken: s.purchaseToken, limit: 1).first,
           newest.saysTheSame(as: s) {
            return false
        }
        try connection.run("""
            INSERT INTO googleplay_snapshots (package_name, purchase_token, observed_at, state, latest_order_id, expiry_time,
                start_time, product_id, linked_purchase_token, cancellation, revoked_at)
            VALUES (\(s.packageName), \(s.purchaseToken), \(s.observedAt), \(s.state), \(s.latestOrderId), \(s.expiryTime),
                    \(s.startTime), \(s.productId), \(s.linkedPurchaseToken), \(s.cancellation), \(s.revokedAt))
            ON CONFLICT DO NOTHING
            """)
        return true
    }
}
