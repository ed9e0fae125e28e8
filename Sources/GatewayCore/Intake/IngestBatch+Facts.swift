import GatewayStore
import Wire

extension IngestBatch {
    /// The batch that stores `facts`: the one conversion from what a store proved to what the
    /// store's unit of work takes.
    init(_ facts: VerifiedFacts, accountId: String?, notificationUUID: String?, at: Instant, source: HistorySource?) {
        self.init(accountId: accountId, transactions: facts.transactions, renewalInfos: facts.renewals,
                  receiptData: facts.receiptData, notificationUUID: notificationUUID, at: at, source: source)
        historyFetched = facts.historyFetched
        namedOwners = facts.namedOwners
        customers = facts.customers
        playSnapshots = facts.playSnapshots
    }
}
