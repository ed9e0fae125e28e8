import Entitle
import GatewayStore
import IssueCatalog
import Wire

/// An account's own issue-list answer (no institution's share, E30) on the catalog's current
/// revision: the one kept in memory while it holds (E18), else the facts evaluated once and the
/// answer kept. A reader's list, its token for an issue and the push of a new issue to its
/// devices all come here, so that together they cost one read of the facts and one evaluation.
package struct OwnAnswers: Sendable {
    private let accounts: AccountFactsCache
    private let engine: EntitlementEvaluator
    private let clock: any GatewayClock

    package init(accounts: AccountFactsCache, engine: EntitlementEvaluator, clock: any GatewayClock) {
        self.accounts = accounts; self.engine = engine; self.clock = clock
    }

    /// The kept answer holding for `publicationId`'s issues (every publication's when nil) at the
    /// clock's now, or nil: no evaluation.
    package func kept(of accountId: String, publicationId: String?, in state: CatalogState) -> IssueListAnswer? {
        accounts.answer(accountId, publicationId: publicationId, catalogRevision: state.revision, now: clock.now())
    }

    /// The answer holding for `publicationId`'s issues (every publication's when nil) at the
    /// clock's now. With `reach` `.memory`, nil when neither the answer nor the facts are kept.
    package func answer(of accountId: String, publicationId: String?, in state: CatalogState,
                        reach: Reach) throws(GatewayError) -> IssueListAnswer? {
        let now = clock.now()
        if let kept = accounts.answer(accountId, publicationId: publicationId, catalogRevision: state.revision, now: now) {
            return kept
        }
        let loaded: AccountFactsCache.Loaded
        switch reach {
        case .memory:
            guard let cached = accounts.cachedLoad(accountId) else { return nil }
            loaded = cached
        case .store:
            loaded = try stored { () throws(StoreError) in try accounts.load(accountId) }
        }
        return evaluated(accountId, loaded, state, now)
    }

    /// Several accounts' answers for `publicationId`'s issues (a push's page): the kept ones from
    /// memory, the facts of the rest read together in one unit of work.
    package func answers(of accountIds: [String], publicationId: String,
                         in state: CatalogState) throws(StoreError) -> [String: IssueListAnswer] {
        let now = clock.now()
        var answers: [String: IssueListAnswer] = [:]
        var missing: [String] = []
        for id in accountIds {
            if let kept = accounts.answer(id, publicationId: publicationId, catalogRevision: state.revision, now: now) {
                answers[id] = kept
            } else {
                missing.append(id)
            }
        }
        for (id, loaded) in try accounts.load(missing) { answers[id] = evaluated(id, loaded, state, now) }
        return answers
    }

    private func evaluated(_ accountId: String, _ loaded: AccountFactsCache.Loaded, _ state: CatalogState,
                           _ now: Instant) -> IssueListAnswer {
        let answer = engine.evaluate(loaded.facts, state, now).issueListAnswer
        accounts.remember(answer, catalogRevision: state.revision, accountId, ticket: loaded.ticket)
        return answer
    }
}
