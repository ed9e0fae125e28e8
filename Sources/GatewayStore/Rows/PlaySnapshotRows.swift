import Wire

/// Google Play subscription snapshots (E25): `googleplay_snapshots`, one row per change the
/// gateway saw in what Google answers for a token, numbered per token in the order kept.
extension SQLReading {
    /// The newest `limit` snapshots kept of a token, in the order they were kept.
    public func playSnapshots(packageName: String, purchaseToken: String, limit: Int) throws(StoreError) -> [PlaySnapshotRecord] {
        try newestPlaySnapshots(packageName: packageName, purchaseToken: purchaseToken, limit: limit).reversed()
    }

    private func newestPlaySnapshots(packageName: String, purchaseToken: String, limit: Int) throws(StoreError) -> [PlaySnapshotRecord] {
        try connection.query("""
            SELECT observed_at, state, latest_order_id, expiry_time, start_time, product_id, linked_purchase_token,
                   cancellation, revoked_at
            FROM googleplay_snapshots WHERE package_name = \(packageName) AND purchase_token = \(purchaseToken)
            ORDER BY seq DESC LIMIT \(max(0, limit))
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
    /// Keeps `snapshot` after the token's others unless the newest kept one says the same (which
    /// keeps the earlier instant, the one E25 reads); true when it was kept. A number two units of
    /// work take at once for the same token is kept once (`ON CONFLICT DO NOTHING`); the next
    /// fetch sees Google again.
    @discardableResult
    public func recordPlaySnapshot(_ s: PlaySnapshotRecord) throws(StoreError) -> Bool {
        if let newest = try playSnapshots(packageName: s.packageName, purchaseToken: s.purchaseToken, limit: 1).first,
           newest.saysTheSame(as: s) {
            return false
        }
        try connection.run("""
            INSERT INTO googleplay_snapshots (package_name, purchase_token, seq, observed_at, state, latest_order_id,
                expiry_time, start_time, product_id, linked_purchase_token, cancellation, revoked_at)
            SELECT \(s.packageName), \(s.purchaseToken), COALESCE(MAX(seq), 0) + 1, \(s.observedAt), \(s.state),
                   \(s.latestOrderId), \(s.expiryTime), \(s.startTime), \(s.productId), \(s.linkedPurchaseToken),
                   \(s.cancellation), \(s.revokedAt)
            FROM googleplay_snapshots WHERE package_name = \(s.packageName) AND purchase_token = \(s.purchaseToken)
            ON CONFLICT DO NOTHING
            """)
        return true
    }
}
