import Entitle
import Wire

/// Stores App Store facts inside a write unit of work, for every backend alike: merges each fact
/// with the stored one of the same identity (E1, `TransactionMerge`), decides who owns every
/// subscription the batch touches (E4, `OwnershipRule`), points those subscriptions at the batch's
/// receipt and bumps the facts version of every account whose facts changed.
public struct FactIngestor: Sendable {
    public var policy: OwnershipPolicy
    /// When webhooks are on, every account whose facts change gets `entitlement.changed` in the
    /// same unit of work.
    public var events: EventPolicy

    public init(policy: OwnershipPolicy, events: EventPolicy = .off) { self.policy = policy; self.events = events }

    /// `.notFound` for an unknown account; `.ownedByOtherAccount` under `.keep` (the caller's unit
    /// of work then rolls everything back).
    public func ingest(_ batch: IngestBatch, into tx: any WriteTransaction) throws(StoreError) -> IngestResult {
        if let accountId = batch.accountId, try tx.account(id: accountId) == nil {
            throw .notFound("account \(accountId)")
        }
        // Dedupe inside the unit of work (http-api.md: 200 only once the facts are stored): the
        // mark and the facts commit together or not at all.
        if let uuid = batch.notificationUUID, try !tx.insertProcessedNotification(uuid, at: batch.at) {
            return IngestResult(owners: [:], previousOwners: [], duplicateNotification: true)
        }
        let merged = try merge(batch, into: tx)
        var changed = merged.keys
        var result = IngestResult(owners: [:], previousOwners: [])
        let bound = Set(batch.transactions.map(\.subscriptionKey))
        for key in bound.sorted() {
            if try bind(key, batch, tx, &result) { changed.insert(key) }
        }
        for key in Set(batch.renewalInfos.map(\.subscriptionKey)).subtracting(bound) {
            result.owners[key] = try tx.owner(of: key)
        }
        if let data = batch.receiptData {
            try point(bound, to: try ReceiptContent(data: data), at: batch.at, tx)
        }
        try bumpVersions(changed, &result, tx)
        try recordChanges(merged, result, at: batch.at, tx)
        return result
    }

    /// E4: records `OwnershipRule`'s decision for one subscription the batch brought. True when
    /// its owner changed.
    private func bind(_ key: SubscriptionKey, _ batch: IngestBatch, _ tx: any WriteTransaction,
                      _ result: inout IngestResult) throws(StoreError) -> Bool {
        switch OwnershipRule.decide(current: try tx.owner(of: key), tokenAccount: try tokenAccount(key, tx),
                                    requester: batch.accountId, policy: policy) {
        case .unchanged(let owner):
            result.owners[key] = owner
            return false
        case .refuse(let owner):
            throw .ownedByOtherAccount(accountId: owner)
        case .bind(let owner, let previous):
            try tx.setOwner(owner, of: key, at: batch.at)
            result.owners[key] = owner
            if let previous { result.previousOwners.insert(previous) }
            return true
        }
    }

    /// Stores the receipt once and points every subscription it describes at it; a receipt no
    /// subscription points to any more is deleted.
    private func point(_ subscriptions: Set<SubscriptionKey>, to receipt: ReceiptContent, at instant: Instant,
                       _ tx: any WriteTransaction) throws(StoreError) {
        try tx.save(receipt)
        var replaced: Set<String> = []
        for key in subscriptions.sorted() {
            if let old = try tx.latestReceiptDigest(for: key), old != receipt.digest { replaced.insert(old) }
            try tx.setLatestReceipt(receipt.digest, for: key, at: instant)
        }
        for digest in replaced.sorted() { try tx.deleteReceiptIfUnreferenced(digest) }
    }

    /// Bumps the facts version of every account whose facts changed: the owner of each changed
    /// subscription and every account that lost one.
    private func bumpVersions(_ changed: Set<SubscriptionKey>, _ result: inout IngestResult,
                              _ tx: any WriteTransaction) throws(StoreError) {
        var accounts = result.previousOwners
        for key in changed { if let owner = result.owners[key] ?? nil { accounts.insert(owner) } }
        for account in accounts.sorted() {
            try tx.bumpFactsVersion(ofAccount: account)
            result.factsVersions[account] = try tx.factsVersion(ofAccount: account)
        }
    }

    /// `entitlement.changed` for every account whose facts version moved, with why: the changed
    /// transactions of its subscriptions (purchase, renewal, refund), renewal information alone
    /// (expiry), or a subscription that changed hands (transfer).
    private func recordChanges(_ merged: MergedFacts, _ result: IngestResult, at instant: Instant,
                               _ tx: any WriteTransaction) throws(StoreError) {
        guard events.webhooks else { return }
        for account in result.factsVersions.keys.sorted() {
            var causes: Set<EntitlementChangeCause> = []
            if result.previousOwners.contains(account) { causes.insert(.transfer) }
            let owned = Set(merged.keys.filter { result.owners[$0] == account })
            for transaction in merged.transactions where owned.contains(transaction.subscriptionKey) {
                causes.insert(EntitlementChangeCause.of(transaction))
            }
            if causes.isEmpty { causes.insert(merged.transactions.isEmpty ? .expiry : .transfer) }
            try EntitlementChangeEvent.record(accountId: account, causes: causes, at: instant, policy: events, tx)
        }
    }

    /// What a batch changed: the merged transactions that differ from the stored ones, and every
    /// subscription whose transactions or renewal information changed.
    struct MergedFacts {
        var transactions: [Transaction]
        var keys: Set<SubscriptionKey>
    }

    /// E1: stores each merged fact that differs from the stored one. Returns what changed, so a
    /// batch that brings nothing new changes no version.
    private func merge(_ batch: IngestBatch, into tx: any WriteTransaction) throws(StoreError) -> MergedFacts {
        let transactions = try Self.merge(batch.transactions, stored: { (t) throws(StoreError) in try tx.transaction(t.key) },
                                          TransactionMerge.merge, save: { (t) throws(StoreError) in try tx.save(t) })
        let renewals = try Self.merge(batch.renewalInfos,
                                      stored: { (r) throws(StoreError) in try tx.renewalInfo(r.subscriptionKey) },
                                      TransactionMerge.merge, save: { (r) throws(StoreError) in try tx.save(r) })
        return MergedFacts(transactions: transactions,
                           keys: Set(transactions.map(\.subscriptionKey)).union(renewals.map(\.subscriptionKey)))
    }

    private static func merge<Fact: Equatable & SubscriptionFact>(
        _ incoming: [Fact], stored: (Fact) throws(StoreError) -> Fact?, _ merge: (Fact, Fact) -> Fact,
        save: (Fact) throws(StoreError) -> Void
    ) throws(StoreError) -> [Fact] {
        var changed: [Fact] = []
        for fact in incoming {
            let old = try stored(fact)
            let merged = old.map { merge($0, fact) } ?? fact
            guard merged != old else { continue }
            try save(merged)
            changed.append(merged)
        }
        return changed
    }

    /// E4: the account an `appAccountToken` names on the subscription's newest transaction that
    /// carries a token some account holds.
    private func tokenAccount(_ key: SubscriptionKey, _ tx: any WriteTransaction) throws(StoreError) -> String? {
        let newestFirst = try tx.transactions(of: key).sorted {
            ($0.purchaseDate, $0.transactionId) > ($1.purchaseDate, $1.transactionId)
        }
        var asked: Set<String> = []
        for token in newestFirst.compactMap(\.appAccountToken) where asked.insert(token).inserted {
            if let account = try tx.account(appAccountToken: token) { return account.id }
        }
        return nil
    }
}

/// A fact that belongs to one subscription or single purchase.
protocol SubscriptionFact { var subscriptionKey: SubscriptionKey { get } }
extension Transaction: SubscriptionFact {}
extension RenewalInfo: SubscriptionFact {}
