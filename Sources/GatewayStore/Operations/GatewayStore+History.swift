import Wire

/// Account history (http-api.md, `GET /v1/accounts/{accountId}/history`): events are appended by
/// the operations that store their facts (`FactIngestor`, grants, codes), in the same unit of
/// work; these read them, and record what an operator did.
extension GatewayStore {
    /// At most `limit` events after `sequence`, oldest first, with the cursor of the next page
    /// while more remain; nil for an unknown account.
    public func history(ofAccount accountId: String, after sequence: Int64?, limit: Int) throws(StoreError) -> HistoryPage? {
        try read { tx throws(StoreError) in
            guard try tx.account(id: accountId) != nil else { return nil }
            var events = try tx.history(ofAccount: accountId, after: sequence, limit: limit + 1)
            let more = events.count > limit
            if more { events.removeLast() }
            return HistoryPage(events: events, next: more ? events.last?.sequence : nil)
        }
    }

    /// Records an operator's action on an account (source `admin`), e.g. a renewal-date extension
    /// asked of Apple; false (nothing written) for an unknown account. `details` must not name
    /// `at`, `kind` or `source`.
    @discardableResult
    public func recordOperatorAction(_ action: String, on accountId: String, details: JSONObject = JSONObject(),
                                     at instant: Instant) throws(StoreError) -> Bool {
        try write { tx throws(StoreError) in
            guard try tx.account(id: accountId) != nil else { return false }
            var all = JSONObject()
            all.set("action", .string(action))
            for member in details { all.set(member.name, member.value) }
            try tx.append(HistoryEvent(accountId: accountId, at: instant, kind: .operatorAction, source: .admin, details: all))
            return true
        }
    }
}

extension GatewayStore {
    /// The account's events about some transactions (by `transactionId`, and their subscriptions'
    /// ownership changes by `originalTransactionId`) or grants (by `grantId`), oldest first: the
    /// history behind an explanation's evidence. Reads the account's whole history on one
    /// snapshot, a page at a time.
    public func historyEvents(ofAccount accountId: String, transactions: Set<String>, subscriptions: Set<String>,
                              grants: Set<String>) throws(StoreError) -> [HistoryEvent] {
        try read { tx throws(StoreError) in
            var found: [HistoryEvent] = []
            try Self.forEachHistoryPage(ofAccount: accountId, tx) { page in
                found += page.filter { event in
                    let text = { (name: String) in event.details[name]?.stringValue }
                    if let id = text("transactionId") { return transactions.contains(id) }
                    if let id = text("grantId") { return grants.contains(id) }
                    return event.kind == .ownershipBound || event.kind == .ownershipTransferredAway
                        ? text("originalTransactionId").map(subscriptions.contains) ?? false : false
                }
            }
            return found
        }
    }

    /// The account's whole history, a page at a time, oldest first, on the caller's snapshot.
    static func forEachHistoryPage(ofAccount accountId: String, _ tx: any ReadTransaction,
                                   _ body: ([HistoryEvent]) throws(StoreError) -> Void) throws(StoreError) {
        var after: Int64?
        while true {
            let page = try tx.history(ofAccount: accountId, after: after, limit: historyScanPage)
            try body(page)
            guard page.count == historyScanPage, let last = page.last else { return }
            after = last.sequence
        }
    }

    private static var historyScanPage: Int { 500 }
}
