import Entitle
import Wire

/// Stores App Store facts inside a write unit of work, for every backend alike: merges each fact
/// with the stored one of the same identity (E1, `TransactionMerge`), decides who owns every
/// subscription the batch touches (E4, `OwnershipRule`) before it writes anything, points those
/// subscriptions at the batch's receipt, bumps the facts version of every account whose facts
/// changed and appends what changed to the history of the account it concerns (`FactHistory`),
/// all in the caller's unit of work.
public struct FactIngestor: Sendable {
    public var policy: OwnershipPolicy
    /// When webhooks are on, every account whose facts change gets `entitlement.changed` in the
    /// same unit of work.
    public var events: EventPolicy

    public init(policy: OwnershipPolicy, events: EventPolicy = .off) { self.policy = policy; self.events = events }

    /// E4 is decided before anything is written, so a `.refused` or `.unknownAccount` outcome
    /// leaves the caller's unit of work unchanged (it commits nothing).
    public func ingest(_ batch: IngestBatch, into tx: any WriteTransaction) throws(StoreError) -> IngestOutcome {
        if let accountId = batch.accountId, try tx.account(id: accountId) == nil {
            return .unknownAccount
        }
        // Dedupe inside the unit of work (http-api.md: 200 only once the facts are stored): the
        // mark and the facts commit together or not at all. Without a requesting account (a
        // notification) E4 cannot refuse (`OwnershipRule`), so the mark is taken first and a
        // notification sent again costs one insert; with one, only after E4 allowed the batch.
        if batch.accountId == nil, try isDuplicate(batch, tx) { return .stored(.duplicate) }
        // Each subscription read here is not read again by the save (nothing writes it between).
        var read: [SubscriptionKey: [Transaction]] = [:]
        let merged = try Self.plan(batch.transactions, key: \.key, stored: { (t) throws(StoreError) in
            guard let stored = try tx.subscription(holding: t.key, else: t.subscriptionKey) else { return nil }
            read[stored.key] = stored.transactions
            return stored.transactions.first { $0.key == t.key }
        }, TransactionMerge.merge)
        let bound = Set(batch.transactions.map(\.subscriptionKey)).union(batch.namedOwners.keys), incoming = merged.map(\.new)
        var result = IngestResult(owners: [:], previousOwners: [])
        var bindings: [(key: SubscriptionKey, owner: String, previous: String?)] = []
        for key in bound.sorted() {
            switch OwnershipRule.decide(current: try tx.owner(of: key),
                                        tokenAccount: try namedAccount(key, batch, merged: incoming, tx),
                                        requester: batch.accountId, policy: policy) {
            case .unchanged(let owner): result.owners[key] = owner
            case .bind(let owner, let previous): bindings.append((key, owner, previous))
            case .refuse(let owner): return .refused(ownedBy: owner)
            }
        }
        if batch.accountId != nil, try isDuplicate(batch, tx) { return .stored(.duplicate) }
        var changes = try save(merged, read: read, renewals: batch.renewalInfos, tx)
        var changed = changes.subscriptions
        for (key, owner, previous) in bindings {
            try tx.setOwner(owner, of: key, at: batch.at)
            result.owners[key] = owner
            if let previous { result.previousOwners.insert(previous) }
            changes.ownership[key] = FactHistory.ownership(key, owner: owner, previous: previous)
            changed.insert(key)
        }
        for key in Set(batch.renewalInfos.map(\.subscriptionKey)).subtracting(bound) {
            result.owners[key] = try tx.owner(of: key)
        }
        for key in Set(batch.historyFetched).sorted() { try tx.markHistoryFetched(key, at: batch.at) }
        for (key, customer) in batch.customers.sorted(by: { $0.key < $1.key }) { try tx.setCustomer(customer, of: key) }
        for snapshot in batch.playSnapshots { try tx.recordPlaySnapshot(snapshot) }
        if let data = batch.receiptData {
            try point(bound, to: try ReceiptContent(data: data), at: batch.at, tx)
        }
        try bumpVersions(changed, &result, tx)
        try record(changes, owners: result.owners, batch, tx)
        try recordEntitlementChanges(changes, result, at: batch.at, tx)
        return .stored(result)
    }

    /// Records the batch's notification UUID; true when it was recorded already (nothing more to do).
    private func isDuplicate(_ batch: IngestBatch, _ tx: any WriteTransaction) throws(StoreError) -> Bool {
        guard let uuid = batch.notificationUUID else { return false }
        return try !tx.insertProcessedNotification(uuid, at: batch.at)
    }

    /// `entitlement.changed` for every account whose facts version moved, with why: the changed
    /// transactions of its subscriptions (purchase, renewal, refund), renewal information alone
    /// (expiry), or a subscription that changed hands (transfer).
    private func recordEntitlementChanges(_ changes: FactChanges, _ result: IngestResult, at instant: Instant,
                                          _ tx: any WriteTransaction) throws(StoreError) {
        guard events.webhooks else { return }
        let changed = changes.transactions.values.flatMap { $0.map(\.new) }
        for account in result.factsVersions.keys.sorted() {
            var causes: Set<EntitlementChangeCause> = []
            if result.previousOwners.contains(account) { causes.insert(.transfer) }
            for transaction in changed where result.owners[transaction.subscriptionKey] == account {
                causes.insert(EntitlementChangeCause.of(transaction))
            }
            if causes.isEmpty { causes.insert(changed.isEmpty ? .expiry : .transfer) }
            try EntitlementChangeEvent.record(accountId: account, causes: causes, at: instant, policy: events, tx)
        }
    }

    /// Appends the batch's events to the history of the account each concerns: per subscription,
    /// ownership first, then its transactions, then its renewal info. Facts of a subscription
    /// nobody owns concern no account and are in no history.
    private func record(_ changes: FactChanges, owners: [SubscriptionKey: String?], _ batch: IngestBatch,
                        _ tx: any WriteTransaction) throws(StoreError) {
        let source = batch.source ?? FactHistory.source(of: batch.transactions, batch.renewalInfos)
        var recorded: [HistoryEvent] = []
        for key in changes.keys {
            for (accountId, kind, details) in changes.ownership[key] ?? [] {
                recorded.append(HistoryEvent(accountId: accountId, at: batch.at, kind: kind, source: source, details: details))
            }
            guard let owner = owners[key] ?? nil else { continue }
            let transactions = (changes.transactions[key] ?? []).sorted {
                ($0.new.purchaseDate, $0.new.transactionId) < ($1.new.purchaseDate, $1.new.transactionId)
            }
            var events = transactions.flatMap { FactHistory.events($0.old, $0.new) }
            if let renewal = changes.renewals[key], let event = FactHistory.event(renewal.old, renewal.new) { events.append(event) }
            for (kind, details) in events {
                recorded.append(HistoryEvent(accountId: owner, at: batch.at, kind: kind, source: source, details: details))
            }
        }
        try tx.append(contentsOf: recorded)
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
            result.factsVersions[account] = try tx.bumpFactsVersion(ofAccount: account)
        }
    }

    /// E1: stores each merged fact that differs from the stored one (`plan`), and returns what
    /// changed, so a batch that brings nothing new changes no version and records no event.
    private func save(_ transactions: [(old: Transaction?, new: Transaction)], read: [SubscriptionKey: [Transaction]],
                      renewals: [RenewalInfo], _ tx: any WriteTransaction) throws(StoreError) -> FactChanges {
        var changes = FactChanges()
        try tx.save(merged: transactions, read: read)
        for (old, new) in transactions { changes.note(old, new) }
        for (old, new) in try Self.plan(renewals, key: \.subscriptionKey,
                                        stored: { (r) throws(StoreError) in try tx.renewalInfo(r.subscriptionKey) },
                                        TransactionMerge.merge) {
            try tx.save(new)
            changes.renewals[new.subscriptionKey] = changes.renewals[new.subscriptionKey].map { ($0.old, new) } ?? (old, new)
        }
        return changes
    }

    /// E1 without writing: each incoming fact merged with the stored one of its identity, or with
    /// the batch's own earlier description of it; only those that differ from what they merged into.
    private static func plan<Fact: Equatable, Key: Hashable>(
        _ incoming: [Fact], key: (Fact) -> Key, stored: (Fact) throws(StoreError) -> Fact?, _ merge: (Fact, Fact) -> Fact
    ) throws(StoreError) -> [(old: Fact?, new: Fact)] {
        var latest: [Key: Fact] = [:]
        var changed: [(old: Fact?, new: Fact)] = []
        for fact in incoming {
            var old = latest[key(fact)]
            if old == nil { old = try stored(fact) }
            let merged = old.map { merge($0, fact) } ?? fact
            guard merged != old else { continue }
            latest[key(fact)] = merged
            changed.append((old, merged))
        }
        return changed
    }

    /// E4: the account the store names for the subscription (`IngestBatch.namedOwners`) when it
    /// exists, else the one an `appAccountToken` names. E32: an account merged into another is
    /// that other account (a Stripe `client_reference_id`, a Play `obfuscatedExternalAccountId`
    /// or a V2 `appAccountToken` naming it reaches where it was merged).
    private func namedAccount(_ key: SubscriptionKey, _ batch: IngestBatch, merged: [Transaction],
                              _ tx: any WriteTransaction) throws(StoreError) -> String? {
        if let named = batch.namedOwners[key], let account = try tx.reachedAccount(id: named) { return account.id }
        return try tokenAccount(key, merged: merged, tx)
    }

    /// E4: the account an `appAccountToken` names on the subscription's newest transaction that
    /// carries a token some account holds, counting the batch's merged transactions as stored.
    private func tokenAccount(_ key: SubscriptionKey, merged: [Transaction],
                              _ tx: any WriteTransaction) throws(StoreError) -> String? {
        var transactions: [TransactionKey: Transaction] = [:]
        for transaction in try tx.transactions(of: key) { transactions[transaction.key] = transaction }
        for transaction in merged where transaction.subscriptionKey == key { transactions[transaction.key] = transaction }
        let newestFirst = transactions.values.sorted {
            ($0.purchaseDate, $0.transactionId) > ($1.purchaseDate, $1.transactionId)
        }
        var asked: Set<String> = []
        for token in newestFirst.compactMap(\.appAccountToken) where asked.insert(token).inserted {
            if let holder = try tx.account(appAccountToken: token), let account = try tx.reachedAccount(id: holder.id) {
                return account.id
            }
        }
        return nil
    }
}

/// What one batch changed, by subscription, for the facts versions and the history. A fact the
/// batch describes twice keeps its first stored state as `old` and its last as `new`.
private struct FactChanges {
    var transactions: [SubscriptionKey: [(old: Transaction?, new: Transaction)]] = [:]
    var renewals: [SubscriptionKey: (old: RenewalInfo?, new: RenewalInfo)] = [:]
    var ownership: [SubscriptionKey: [(accountId: String, kind: HistoryKind, details: JSONObject)]] = [:]

    mutating func note(_ old: Transaction?, _ new: Transaction) {
        var list = transactions[new.subscriptionKey] ?? []
        if let i = list.firstIndex(where: { $0.new.key == new.key }) { list[i].new = new } else { list.append((old, new)) }
        transactions[new.subscriptionKey] = list
    }

    /// Subscriptions whose stored facts changed.
    var subscriptions: Set<SubscriptionKey> { Set(transactions.keys).union(renewals.keys) }
    /// Every subscription with an event, in order.
    var keys: [SubscriptionKey] { subscriptions.union(ownership.keys).sorted() }
}
