import Wire

/// E32: an anonymous account merged into an identified one, inside the caller's unit of work.
extension WriteTransaction {
    /// Everything `from` holds becomes `into`'s (subscriptions and purchases, grants and print
    /// claims, push devices, redeemed codes: `RecordRows.rowsMovedByMerge`; download records, pair by
    /// pair; its appAccountToken
    /// reaches `into` through `reachedAccount`); both facts versions rise; both histories record
    /// `merged`; `from`'s sessions and link codes end. The E4 `keep` policy is not asked: a merge
    /// is one reader's accounts joined, not a transfer. Returns the ended sessions' ids; nil (nothing
    /// written) when `from` was merged already or is `into`.
    public func merge(_ from: String, into: String, at instant: Instant) throws(StoreError) -> [String]? {
        guard from != into, try setMerged(from, into: into, at: instant) else { return nil }
        try moveMergedRows(from: from, into: into)
        try moveDownloadRecords(from: from, to: into)
        let ended = try endSessions(ofAccount: from, at: instant)
        try endLinkCodes(ofAccount: from, at: instant)
        try bumpFactsVersion(ofAccount: from)
        try bumpFactsVersion(ofAccount: into)
        var onInto = JSONObject()
        onInto.set("mergedFrom", .string(from))
        var onFrom = JSONObject()
        onFrom.set("mergedInto", .string(into))
        try append(HistoryEvent(accountId: into, at: instant, kind: .merged, source: .signIn, details: onInto))
        try append(HistoryEvent(accountId: from, at: instant, kind: .merged, source: .signIn, details: onFrom))
        return ended
    }
}
