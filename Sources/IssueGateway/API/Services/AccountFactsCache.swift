import Entitle
import GatewayStore
import IssueCatalog
import Synchronization
import Wire

/// What the engine needs about one account, as stored.
struct AccountFacts: Sendable {
    var transactions: [Transaction]
    var renewals: [RenewalInfo]
}

/// Which issue list of an account (http-api.md: `?publication=`, `?entitled=true`).
struct IssueListKey: Hashable, Sendable {
    var publicationId: String?
    var entitledOnly: Bool
}

/// A rendered issue list and what it holds for: the catalog revision it was computed on and the
/// instant until which the engine says it stays the same (`issuesStableUntil`).
struct RenderedIssueList: Sendable {
    var catalogRevision: Int64
    var validUntil: Instant
    var body: [UInt8]
}

/// Keeps each account's stored facts, and its rendered issue lists, in memory, so that issue lists
/// and tokens cost no database read and a reader app polling its list costs no recomputation.
/// Every ingest invalidates the accounts it touched (the one that brought the facts and any that
/// lost a subscription to it, E4). A load that raced with an invalidation is not kept.
final class AccountFactsCache: Sendable {
    private struct Entry {
        var facts: AccountFacts
        var lists: [IssueListKey: RenderedIssueList] = [:]
    }

    private struct Entries {
        var accounts: [String: Entry] = [:]
        var generation: UInt64 = 0
    }

    /// Facts as loaded, with the cache generation to hand back when remembering what was
    /// computed from them.
    struct Loaded {
        var facts: AccountFacts
        var generation: UInt64
    }

    private let store: any GatewayStore
    private let limit: Int
    private let entries = Mutex(Entries())

    init(store: any GatewayStore, limit: Int) {
        self.store = store
        self.limit = limit
    }

    func facts(of accountId: String) throws(StoreError) -> AccountFacts { try load(accountId).facts }

    func load(_ accountId: String) throws(StoreError) -> Loaded {
        let (cached, generation) = entries.withLock { ($0.accounts[accountId]?.facts, $0.generation) }
        if let cached { return Loaded(facts: cached, generation: generation) }
        let snapshot = try store.accountFacts(accountId)
        let loaded = AccountFacts(transactions: snapshot.transactions, renewals: snapshot.renewals)
        entries.withLock { e in
            guard e.generation == generation, e.accounts[accountId] == nil else { return }
            if e.accounts.count >= limit { e.accounts.removeAll(keepingCapacity: true) }
            e.accounts[accountId] = Entry(facts: loaded)
        }
        return Loaded(facts: loaded, generation: generation)
    }

    /// A list rendered earlier that still holds: same catalog revision, `now` before its end.
    func list(_ accountId: String, _ key: IssueListKey, catalogRevision: Int64, now: Instant) -> [UInt8]? {
        entries.withLock { e in
            guard let list = e.accounts[accountId]?.lists[key], list.catalogRevision == catalogRevision,
                  now < list.validUntil else { return nil }
            return list.body
        }
    }

    /// Keeps a list computed from facts loaded at `generation`, unless an ingest came between.
    func remember(_ list: RenderedIssueList, _ accountId: String, _ key: IssueListKey, generation: UInt64) {
        entries.withLock { e in
            guard e.generation == generation else { return }
            e.accounts[accountId]?.lists[key] = list
        }
    }

    func invalidate<Accounts: Sequence<String>>(_ accountIds: Accounts) {
        entries.withLock { e in
            e.generation &+= 1
            for id in accountIds { e.accounts[id] = nil }
        }
    }
}
