import Wire

/// Google Play acknowledgements owed (E28), one unit of work each.
extension GatewayStore {
    public func insertPendingAcknowledgement(_ pending: PendingAcknowledgement) throws(StoreError) {
        try write { tx throws(StoreError) in try tx.insertPendingAcknowledgement(pending) }
    }

    public func pendingAcknowledgements(dueBy instant: Instant, limit: Int) throws(StoreError) -> [PendingAcknowledgement] {
        try read { tx throws(StoreError) in try tx.pendingAcknowledgements(dueBy: instant, limit: limit) }
    }

    public func unacknowledgedCount(seenBefore instant: Instant) throws(StoreError) -> Int {
        try read { tx throws(StoreError) in try tx.unacknowledgedCount(seenBefore: instant) }
    }

    public func rescheduleAcknowledgement(_ pending: PendingAcknowledgement) throws(StoreError) {
        try write { tx throws(StoreError) in try tx.rescheduleAcknowledgement(pending) }
    }

    public func deletePendingAcknowledgement(packageName: String, purchaseToken: String) throws(StoreError) {
        try write { tx throws(StoreError) in try tx.deletePendingAcknowledgement(packageName: packageName, purchaseToken: purchaseToken) }
    }
}
