/// The reports' rows (E36, E37) derived after the units of work that change the facts: each
/// marks its accounts due (`bumpFactsVersion`), a drain derives them in batches, and a report
/// drains what is still due before it reads, so it answers from the facts as they stand
/// (decision 96).
extension GatewayStore {
    /// Derives the rows of up to `limit` accounts marked due in one unit of work (`writeDerived`),
    /// with the backend's installed upkeeps; answers how many. `skippingLocked` as in `WriteTransaction`.
    @discardableResult
    public func deriveDueReportRows(limit: Int, skippingLocked: Bool = false) throws(StoreError) -> Int {
        try writeDerived { tx throws(StoreError) in try tx.deriveDueReportRows(limit: limit, skippingLocked: skippingLocked) }
    }

    /// Derives every account marked due, `batch` per unit of work, waiting for marks another
    /// unit of work holds (what a report does before it reads); answers how many.
    @discardableResult
    public func drainReportRows(batch: Int = 500) throws(StoreError) -> Int {
        var done = 0
        while true {
            let derived = try deriveDueReportRows(limit: batch)
            done += derived
            if derived < batch { return done }
        }
    }

    /// True when some account's rows are due (read on a snapshot, without the writer).
    public func hasReportRowsDue() throws(StoreError) -> Bool {
        try read { tx throws(StoreError) in try !tx.reportRowsDue(limit: 1).isEmpty }
    }

    /// Marks every account due, `batch` per unit of work (a rebuild); answers how many.
    @discardableResult
    public func markEveryAccountDue(batch: Int = 500) throws(StoreError) -> Int {
        try markDue(batch: batch) { tx, after throws(StoreError) in try tx.accountIds(after: after, limit: batch) }
    }

    /// Marks every account that owns a subscription or purchase due (E37's rebuild); how many.
    @discardableResult
    public func markOwningAccountsDue(batch: Int = 500) throws(StoreError) -> Int {
        try markDue(batch: batch) { tx, after throws(StoreError) in try tx.owningAccounts(after: after ?? "", limit: batch) }
    }

    private func markDue(batch: Int, _ page: (any ReadTransaction, String?) throws(StoreError) -> [String]) throws(StoreError) -> Int {
        var after: String?, count = 0
        while true {
            let ids = try read { tx throws(StoreError) in try page(tx, after) }
            guard let last = ids.last else { return count }
            try write { tx throws(StoreError) in try tx.markReportRowsDue(ofAccounts: ids) }
            count += ids.count
            after = last
        }
    }
}
