/// The reports' rows (E36, E37) derived after the units of work that change the facts: each
/// marks its accounts due (`bumpFactsVersion`), a drain derives them in batches, and a report
/// drains what is still due before it reads, so it answers from the facts as they stand
/// (decision 96).
extension GatewayStore {
    /// Derives the rows of up to `limit` accounts marked due, with the backend's installed
    /// upkeeps; answers how many. `skippingLocked` as in `WriteTransaction`.
    @discardableResult
    public func deriveDueReportRows(limit: Int, skippingLocked: Bool = false) throws(StoreError) -> Int {
        var after = ""
        return try deriveDueReportRows(after: &after, limit: limit, skippingLocked: skippingLocked)
    }

    /// Derives every account marked due when it starts, by id, `batch` per unit of work, passing
    /// over marks another unit of work holds: one sweep of a background drain. An account marked
    /// again meanwhile waits for the next sweep, so a busy account is derived once a sweep, not
    /// once a change. Answers how many.
    @discardableResult
    public func sweepDueReportRows(batch: Int) throws(StoreError) -> Int {
        var after = "", done = 0
        while true {
            let derived = try deriveDueReportRows(after: &after, limit: batch, skippingLocked: true)
            done += derived
            // A forwarding store's batches come from the backend's unit of work, with no cursor.
            if factsUpkeep == nil ? derived < batch : after.isEmpty { return done }
        }
    }

    /// Up to `limit` accounts marked due by id after `after`, their rows computed on a snapshot so
    /// the writer is held only to write them (`prepareDueReportRows`, then `writeDerived`,
    /// decision 130); `after` becomes the last of them ("" when none was due). A store that
    /// forwards to a backend (no `factsUpkeep`) has the backend derive them in its unit of work.
    private func deriveDueReportRows(after: inout String, limit: Int, skippingLocked: Bool) throws(StoreError) -> Int {
        var prepared: PreparedReportRows?
        if let upkeep = factsUpkeep?.installed {
            let from = after
            prepared = try read { tx throws(StoreError) in try tx.prepareDueReportRows(after: from, limit: limit, upkeep: upkeep) }
            after = prepared?.accountIds.last ?? ""
            guard prepared != nil else { return 0 }
        }
        return try writeDerived { tx throws(StoreError) in
            try tx.deriveDueReportRows(limit: limit, skippingLocked: skippingLocked, prepared: prepared)
        }
    }

    /// Derives every account marked due, `batch` per unit of work, waiting for marks another
    /// unit of work holds (what a report does before it reads); answers how many.
    @discardableResult
    public func drainReportRows(batch: Int = 500) throws(StoreError) -> Int {
        var done = 0
        while true {
            let derived = try deriveDueReportRows(limit: batch)
            done += derived
            // A batch prepared on a snapshot can find some of its marks cleared by a drain beside
            // it, so a short batch is not the last until none is due.
            if derived < batch, try !hasReportRowsDue() { return done }
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
