import Entitle
import Synchronization

/// What the engine needs about one account, as stored.
struct AccountFacts: Sendable {
    var transactions: [Transaction]
    var renewals: [RenewalInfo]
}

/// Keeps each account's stored facts in memory so that issue lists and tokens cost no database
/// read. Every ingest invalidates the accounts it touched (the one that brought the facts and any
/// that lost a subscription to it, E4). A load that raced with an invalidation is not kept.
final class AccountFactsCache: Sendable {
    private struct Entries {
        var facts: [String: AccountFacts] = [:]
        var generation: UInt64 = 0
    }

    private let store: any GatewayStore
    private let limit: Int
    private let entries = Mutex(Entries())

    init(store: any GatewayStore, limit: Int) {
        self.store = store
        self.limit = limit
    }

    func facts(of accountId: String) throws(StoreError) -> AccountFacts {
        let (cached, generation) = entries.withLock { ($0.facts[accountId], $0.generation) }
        if let cached { return cached }
        let loaded = AccountFacts(transactions: try store.transactions(ofAccount: accountId),
                                  renewals: try store.renewalInfos(ofAccount: accountId))
        entries.withLock { e in
            guard e.generation == generation else { return }
            if e.facts.count >= limit { e.facts.removeAll(keepingCapacity: true) }
            e.facts[accountId] = loaded
        }
        return loaded
    }

    func invalidate<Accounts: Sequence<String>>(_ accountIds: Accounts) {
        entries.withLock { e in
            e.generation &+= 1
            for id in accountIds { e.facts[id] = nil }
        }
    }
}
