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
            \(Self.playSnapshotColumns) FROM googleplay_snapshots
            WHERE package_name = \(packageName) AND purchase_token = \(purchaseToken)
            ORDER BY seq DESC LIMIT \(max(0, limit))
            """) { row in Self.playSnapshot(row, packageName: packageName, purchaseToken: purchaseToken) }
    }

    public func linkedPurchaseTokens(of purchaseToken: String) throws(StoreError) -> [String] {
        try connection.query("""
            SELECT DISTINCT linked_purchase_token FROM googleplay_snapshots
            WHERE purchase_token = \(purchaseToken) AND linked_purchase_token IS NOT NULL
            ORDER BY linked_purchase_token
            """) { row in row.text(0) }
    }

    /// The columns `playSnapshot` maps, the number in the order kept last.
    static var playSnapshotColumns: SQL {
        """
        SELECT observed_at, state, latest_order_id, expiry_time, start_time, product_id, linked_purchase_token,
               cancellation, revoked_at, seq
        """
    }

    static func playSnapshot(_ row: some StoredRow, packageName: String, purchaseToken: String) -> PlaySnapshotRecord {
        PlaySnapshotRecord(packageName: packageName, purchaseToken: purchaseToken, observedAt: row.instant(0),
                           state: row.text(1), latestOrderId: row.optionalText(2), expiryTime: row.optionalInstant(3),
                           startTime: row.optionalInstant(4), productId: row.optionalText(5),
                           linkedPurchaseToken: row.optionalText(6), cancellation: row.optionalText(7),
                           revokedAt: row.optionalInstant(8))
    }
}

extension SQLWriteTransaction {
    /// Keeps `snapshot` unless the token's snapshot kept just before it in time says the same (the
    /// earlier instant stays: E25 reads when the gateway first saw something); when the one kept
    /// just after it says the same (two fetches committed out of order), that one takes the earlier
    /// instant instead. True when a row was added.
    ///
    /// The number is the token's next one. Two units of work taking the same number at once cannot
    /// both commit: SQLite runs one writer at a time, and on PostgreSQL (`REPEATABLE READ`) the
    /// conflict clause makes the later one fail with a serialization failure (it cannot see the
    /// other's row), so that unit of work runs again on a fresh snapshot, its build included.
    @discardableResult
    public func recordPlaySnapshot(_ s: PlaySnapshotRecord) throws(StoreError) -> Bool {
        if try neighbourPlaySnapshot(of: s, after: false)?.record.saysTheSame(as: s) == true { return false }
        if let after = try neighbourPlaySnapshot(of: s, after: true), after.record.saysTheSame(as: s) {
            try connection.run("""
                UPDATE googleplay_snapshots SET observed_at = \(s.observedAt)
                WHERE package_name = \(s.packageName) AND purchase_token = \(s.purchaseToken) AND seq = \(after.seq)
                """)
            return false
        }
        return try connection.run("""
            INSERT INTO googleplay_snapshots (package_name, purchase_token, seq, observed_at, state, latest_order_id,
                expiry_time, start_time, product_id, linked_purchase_token, cancellation, revoked_at)
            SELECT \(s.packageName), \(s.purchaseToken), COALESCE(MAX(seq), 0) + 1, \(s.observedAt), \(s.state),
                   \(s.latestOrderId), \(s.expiryTime), \(s.startTime), \(s.productId), \(s.linkedPurchaseToken),
                   \(s.cancellation), \(s.revokedAt)
            FROM googleplay_snapshots WHERE package_name = \(s.packageName) AND purchase_token = \(s.purchaseToken)
            ON CONFLICT DO NOTHING
            """) > 0
    }

    /// The token's snapshot kept just before `s` in time (at or before its instant, the last kept
    /// among equals), or just after it.
    private func neighbourPlaySnapshot(of s: PlaySnapshotRecord, after: Bool) throws(StoreError) -> (seq: Int64, record: PlaySnapshotRecord)? {
        let side: SQL = after ? "observed_at > \(s.observedAt) ORDER BY observed_at, seq"
                              : "observed_at <= \(s.observedAt) ORDER BY observed_at DESC, seq DESC"
        return try connection.queryFirst("""
            \(Self.playSnapshotColumns) FROM googleplay_snapshots
            WHERE package_name = \(s.packageName) AND purchase_token = \(s.purchaseToken) AND \(side)
            LIMIT 1
            """) { row in (row.int64(9), Self.playSnapshot(row, packageName: s.packageName, purchaseToken: s.purchaseToken)) }
    }
}
