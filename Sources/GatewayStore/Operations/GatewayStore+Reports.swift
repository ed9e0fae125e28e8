import Entitle
import IssueCatalog
import Wire

/// The reports' derived rows (reports.md, How fast): read for a report, made again from the facts.
extension GatewayStore {
    /// E37: the days of `tally` (as yet empty) counted over the stored intervals of every
    /// subscription with one of `products`, in one read unit of work, the accounts marked due
    /// derived first (decision 96).
    public func subscriberDays(products: [StoreProductRef], tally: SubscriberSeries.Tally) throws(StoreError) -> [SubscriberSeries.Day] {
        try drainReportRows()
        return try read { tx throws(StoreError) in
            var counting = tally  // afresh on each try of the unit of work
            try tx.tallySubscriberIntervals(products: products, into: &counting)
            return counting.days()
        }
    }

    /// E37: every subscription's intervals made again from the facts (after a loss, or a catalog
    /// change of a product's kind or duration): all deleted, then every owning account marked due
    /// and drained (`batch` per unit of work), then the subscriptions nobody owns. Answers how many
    /// accounts it marked.
    @discardableResult
    public func rebuildSubscriberIntervals(batch: Int = 500) throws(StoreError) -> Int {
        try write { tx throws(StoreError) in try tx.deleteAllSubscriberIntervals() }
        let done = try markOwningAccountsDue(batch: batch)
        try drainReportRows(batch: batch)
        try deriveOwnerlessSubscriberIntervals(batch: batch)
        return done
    }

    /// E37: the intervals of the subscriptions nobody owns (E35 keeps a deleted reader's), from
    /// their own facts, `batch` per unit of work.
    public func deriveOwnerlessSubscriberIntervals(batch: Int = 500) throws(StoreError) {
        let ownerless = try read { tx throws(StoreError) in try tx.ownerlessSubscriptions() }
        for start in stride(from: 0, to: ownerless.count, by: batch) {
            try write { tx throws(StoreError) in
                for key in ownerless[start..<min(start + batch, ownerless.count)] {
                    try tx.refreshSubscriberIntervals(ofSubscription: key)
                }
            }
        }
    }
}
