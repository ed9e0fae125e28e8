/// Google Play subscription snapshots (E25), one unit of work each; ingestion reads them inside
/// the unit of work that stores the periods built from them.
extension GatewayStore {
    /// The newest `limit` snapshots kept of a Google Play token, in the order they were kept.
    public func playSnapshots(packageName: String, purchaseToken: String, limit: Int) throws(StoreError) -> [PlaySnapshotRecord] {
        try read { tx throws(StoreError) in try tx.playSnapshots(packageName: packageName, purchaseToken: purchaseToken, limit: limit) }
    }
}
