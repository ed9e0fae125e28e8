import Entitle
import GatewayStore
import IssueCatalog
import Metrics
import Synchronization
import Wire

/// Reads one account's facts from the store: the one way facts come into the cache.
package typealias AccountFactsLoader = @Sendable (String) throws(StoreError) -> VersionedFacts
/// Reads several accounts' facts in one unit of work (a push's page): every id asked is answered.
package typealias AccountFactsBatchLoader = @Sendable ([String]) throws(StoreError) -> [String: VersionedFacts]

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
/// lists, tokens and pushes cost no database read and a reader app polling its list no
/// recomputation.
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
    private let batchLoader: AccountFactsBatchLoader?
    /// Accounts whose facts were read from the store (`issue_gateway_facts_reads_total`).
    private let reads: Counter?
    private let state: Mutex<State>
    /// While not trusted, nothing is served from or kept in memory.
    private let coherence: CacheCoherence

    /// `batchLoader`: one read for several accounts; without it, `loader` once per account.
    package init(loader: @escaping AccountFactsLoader, batchLoader: AccountFactsBatchLoader? = nil, factsBytes: Int, answerBytes: Int,
         rememberedInvalidations: Int = AccountFactsCache.rememberedInvalidations, coherence: CacheCoherence = CacheCoherence(),
         reads: Counter? = nil) {
        self.loader = loader
        self.batchLoader = batchLoader
        self.reads = reads
        self.coherence = coherence
        state = Mutex(State(facts: ByteBudgetLRU(budget: factsBytes), answers: ByteBudgetLRU(budget: answerBytes),
                            invalidations: InvalidationLog(capacity: rememberedInvalidations)))
    }

    package convenience init(store: any GatewayStore, budget: CacheBudget, coherence: CacheCoherence = CacheCoherence(),
                             reads: Counter? = nil) {
        // One read unit of work: the facts and the version they were read at come from one snapshot.
        self.init(loader: { id throws(StoreError) in try store.accountFacts(id) },
                  batchLoader: { ids throws(StoreError) in try store.accountFacts(ids) },
                  factsBytes: budget.factsBytes, answerBytes: budget.answerBytes, coherence: coherence, reads: reads)
    }

    /// Invalidations remembered to refuse racing loads; past it, loads in flight are not kept.
    package static let rememberedInvalidations = 4_096

    package func facts(of accountId: String) throws(StoreError) -> AccountFacts { try load(accountId).facts }

    package func load(_ accountId: String) throws(StoreError) -> Loaded {
        let trusted = coherence.isTrusted
        let (cached, ticket) = state.withLock { (trusted ? $0.facts.value(for: accountId) : nil, $0.invalidations.ticket()) }
        if let cached { return Loaded(facts: cached.facts, ticket: ticket) }
        let loaded = try loader(accountId)
        reads?.increment()
        let bytes = MemoryFootprint.string(accountId) + loaded.facts.heapBytes
        state.withLock { s in keep(loaded, accountId, bytes: bytes, ticket: ticket, in: &s) }
        return Loaded(facts: loaded.facts, ticket: ticket)
    }

    /// Several accounts' facts: those kept from memory, the rest read together (one unit of work
    /// for all of them) and kept as `load` keeps them.
    package func load(_ accountIds: [String]) throws(StoreError) -> [String: Loaded] {
        let trusted = coherence.isTrusted
        let (found, missing, ticket) = state.withLock { s in
            var found: [String: AccountFacts] = [:], missing: [String] = []
            for id in accountIds {
                if trusted, let cached = s.facts.value(for: id) { found[id] = cached.facts } else { missing.append(id) }
            }
            return (found, missing, s.invalidations.ticket())
        }
        var loaded = found.mapValues { Loaded(facts: $0, ticket: ticket) }
        guard !missing.isEmpty else { return loaded }
        let read = try readAll(missing)
        reads?.increment(by: read.count)
        let sized = read.map { ($0.key, $0.value, MemoryFootprint.string($0.key) + $0.value.facts.heapBytes) }
        state.withLock { s in
            for (id, facts, bytes) in sized { keep(facts, id, bytes: bytes, ticket: ticket, in: &s) }
        }
        for (id, facts) in read { loaded[id] = Loaded(facts: facts.facts, ticket: ticket) }
        return loaded
    }

    private func readAll(_ accountIds: [String]) throws(StoreError) -> [String: VersionedFacts] {
        if let batchLoader { return try batchLoader(accountIds) }
        var facts: [String: VersionedFacts] = [:]
        for id in accountIds { facts[id] = try loader(id) }
        return facts
    }

    /// Keeps facts loaded with `ticket`, unless the account was invalidated since or newer facts
    /// are kept.
    private func keep(_ loaded: VersionedFacts, _ accountId: String, bytes: Int, ticket: InvalidationLog<String>.Ticket,
                      in s: inout State) {
        guard coherence.isTrusted, s.invalidations.isCurrent(ticket, for: accountId) else { return }
        // Two loads of one account may race; the store's version keeps the newer facts.
        if let kept = s.facts.peek(accountId)?.version, kept > loaded.version { return }
        s.facts.insert(loaded, for: accountId, bytes: bytes)
    }

    /// The facts kept for an account, from memory only (nil: they would need the store).
    package func cachedFacts(_ accountId: String) -> AccountFacts? { cachedLoad(accountId)?.facts }

    /// As `load`, from memory only (nil: the facts would need the store).
    package func cachedLoad(_ accountId: String) -> Loaded? {
        guard coherence.isTrusted else { return nil }
        return state.withLock { s in
            s.facts.value(for: accountId).map { Loaded(facts: $0.facts, ticket: s.invalidations.ticket()) }
        }
    }

    /// The answer kept for an account, when it holds for this catalog revision and, at `now`, for
    /// `publicationId`'s issues (every publication's when nil; E18).
    package func answer(_ accountId: String, publicationId: String?, catalogRevision: Int64, now: Instant) -> IssueListAnswer? {
        guard coherence.isTrusted else { return nil }
        return state.withLock { s in
            s.answers.value(for: accountId) { kept in
                kept.catalogRevision == catalogRevision && now < kept.answer.issuesStableUntil(publicationId: publicationId)
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
