import Entitle
import GatewayStore
import IssueCatalog
import Synchronization
import Wire

/// Reads one account's facts from the store: the one way facts come into the cache.
package typealias AccountFactsLoader = @Sendable (String) throws(StoreError) -> VersionedFacts

/// Which issue list of an account (http-api.md: `?publication=`, `?entitled=true`).
package struct IssueListKey: Hashable, Sendable {
    package var publicationId: String?
    package var entitledOnly: Bool

    package init(publicationId: String? = nil, entitledOnly: Bool) {
        self.publicationId = publicationId; self.entitledOnly = entitledOnly
    }
}

/// Keeps each account's stored facts, and the engine's compact answer for its issue lists, in
/// memory within byte budgets (`CacheBudget`), least recently used evicted first, so that issue
/// lists and tokens cost no database read and a reader app polling its list no recomputation.
///
/// Every ingest invalidates the accounts it touched (the one that brought the facts and any that
/// lost a subscription to it, E4), and only those: a load of an account that raced with an
/// invalidation of that same account is answered but not kept (`InvalidationLog`).
package final class AccountFactsCache: Sendable {
    /// An answer and what it holds for: the catalog revision it was computed on.
    private struct KeptAnswer {
        var catalogRevision: Int64
        var answer: IssueListAnswer
    }

    private struct State {
        var facts: ByteBudgetLRU<String, VersionedFacts>
        var answers: ByteBudgetLRU<String, KeptAnswer>
        var invalidations: InvalidationLog<String>
    }

    /// Facts as loaded, with the ticket to hand back when remembering what was computed from them.
    package struct Loaded {
        package var facts: AccountFacts
        package var ticket: InvalidationLog<String>.Ticket
    }

    private let loader: AccountFactsLoader
    private let state: Mutex<State>
    /// While not trusted, nothing is served from or kept in memory.
    private let coherence: CacheCoherence

    package init(loader: @escaping AccountFactsLoader, factsBytes: Int, answerBytes: Int,
         rememberedInvalidations: Int = AccountFactsCache.rememberedInvalidations, coherence: CacheCoherence = CacheCoherence()) {
        self.loader = loader
        self.coherence = coherence
        state = Mutex(State(facts: ByteBudgetLRU(budget: factsBytes), answers: ByteBudgetLRU(budget: answerBytes),
                            invalidations: InvalidationLog(capacity: rememberedInvalidations)))
    }

    package convenience init(store: any GatewayStore, budget: CacheBudget, coherence: CacheCoherence = CacheCoherence()) {
        // One read unit of work: the facts and the version they were read at come from one snapshot.
        self.init(loader: { id throws(StoreError) in try store.accountFacts(id) }, factsBytes: budget.factsBytes, answerBytes: budget.answerBytes, coherence: coherence)
    }

    /// Invalidations remembered to refuse racing loads; past it, loads in flight are not kept.
    package static let rememberedInvalidations = 4_096

    package func facts(of accountId: String) throws(StoreError) -> AccountFacts { try load(accountId).facts }

    package func load(_ accountId: String) throws(StoreError) -> Loaded {
        let trusted = coherence.isTrusted
        let (cached, ticket) = state.withLock { (trusted ? $0.facts.value(for: accountId) : nil, $0.invalidations.ticket()) }
        if let cached { return Loaded(facts: cached.facts, ticket: ticket) }
        let loaded = try loader(accountId)
        let bytes = MemoryFootprint.string(accountId) + loaded.facts.heapBytes
        state.withLock { s in
            guard coherence.isTrusted, s.invalidations.isCurrent(ticket, for: accountId) else { return }
            // Two loads of one account may race; the store's version keeps the newer facts.
            if let kept = s.facts.peek(accountId)?.version, kept > loaded.version { return }
            s.facts.insert(loaded, for: accountId, bytes: bytes)
        }
        return Loaded(facts: loaded.facts, ticket: ticket)
    }

    /// The facts kept for an account, from memory only (nil: they would need the store).
    package func cachedFacts(_ accountId: String) -> AccountFacts? {
        guard coherence.isTrusted else { return nil }
        return state.withLock { $0.facts.value(for: accountId)?.facts }
    }

    /// The answer kept for an account, when it holds for this catalog revision and list at `now`.
    package func answer(_ accountId: String, _ key: IssueListKey, catalogRevision: Int64, now: Instant) -> IssueListAnswer? {
        guard coherence.isTrusted else { return nil }
        return state.withLock { s in
            s.answers.value(for: accountId) { kept in
                kept.catalogRevision == catalogRevision && now < kept.answer.issuesStableUntil(publicationId: key.publicationId)
            }?.answer
        }
    }

    /// Keeps an answer computed from facts loaded with `ticket`, unless the account was
    /// invalidated since.
    package func remember(_ answer: IssueListAnswer, catalogRevision: Int64, _ accountId: String,
                  ticket: InvalidationLog<String>.Ticket) {
        let bytes = MemoryFootprint.string(accountId) + answer.heapBytes
        state.withLock { s in
            guard coherence.isTrusted, s.invalidations.isCurrent(ticket, for: accountId) else { return }
            s.answers.insert(KeptAnswer(catalogRevision: catalogRevision, answer: answer), for: accountId, bytes: bytes)
        }
    }

    package func invalidate<Accounts: Sequence<String>>(_ accounts: Accounts) {
        let accountIds = Array(accounts)
        state.withLock { s in
            s.invalidations.invalidate(accountIds)
            for id in accountIds {
                s.facts.removeValue(for: id)
                s.answers.removeValue(for: id)
            }
        }
    }

    /// Forgets every account (a change feed that lost entries: any of them may have changed).
    package func invalidateAll() {
        state.withLock { s in
            s.invalidations.invalidateAll()
            s.facts.removeAll()
            s.answers.removeAll()
        }
    }

    package var factsStats: CacheStats { state.withLock { $0.facts.stats } }
    package var answerStats: CacheStats { state.withLock { $0.answers.stats } }
}

extension AccountFacts {
    /// What the facts hold on the heap: both arrays and every string in them.
    package var heapBytes: Int {
        var bytes = MemoryFootprint.array(transactions) + MemoryFootprint.array(renewals)
        for t in transactions {
            bytes += MemoryFootprint.strings([t.transactionId, t.originalTransactionId, t.productId])
            bytes += MemoryFootprint.optionalString(t.webOrderLineItemId) + MemoryFootprint.optionalString(t.subscriptionGroup)
                + MemoryFootprint.optionalString(t.appAccountToken)
        }
        for r in renewals {
            bytes += MemoryFootprint.string(r.originalTransactionId) + MemoryFootprint.optionalString(r.productId)
                + MemoryFootprint.optionalString(r.autoRenewProductId)
        }
        bytes += MemoryFootprint.array(grants)
        for g in grants {
            bytes += MemoryFootprint.strings([g.grantId, g.accountId, g.source, g.externalId]) + MemoryFootprint.strings(g.publications)
                + MemoryFootprint.array(g.publications) + MemoryFootprint.optionalString(g.note)
        }
        return bytes
    }
}
