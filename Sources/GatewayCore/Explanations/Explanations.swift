import Entitle
import GatewayStore
import IssueCatalog
import Wire

/// "Why can't this reader open the May issue?" (E20): the engine's answer for one issue with its
/// evidence. One implementation for the explanation route and `issue-gateway account explain`.
package struct Explanations: Sendable {
    private let store: any GatewayStore
    private let accounts: AccountFactsCache
    private let catalog: CatalogCache
    private let entitlements: EntitlementEvaluator
    private let clock: any GatewayClock
    /// E30's queued records, waited for before the evidence's history is read.
    private let given: InstitutionAccounts?

    package init(store: any GatewayStore, accounts: AccountFactsCache, catalog: CatalogCache,
                 entitlements: EntitlementEvaluator, clock: any GatewayClock, given: InstitutionAccounts? = nil) {
        self.store = store; self.accounts = accounts; self.catalog = catalog
        self.entitlements = entitlements; self.clock = clock; self.given = given
    }

    /// Over the store alone, for a one-shot reader (`issue-gateway account explain`): the catalog
    /// and the account's facts are read when asked, nothing is kept for long.
    package init(store: any GatewayStore, policy: EntitlementPolicy, clock: any GatewayClock) throws(StoreError) {
        self.init(store: store, accounts: AccountFactsCache(store: store, budget: CacheBudget(totalBytes: CacheBudget.defaultTotalBytes)),
                  catalog: try CatalogCache(store: store), entitlements: EntitlementEvaluator(policy: policy), clock: clock)
    }

    /// The engine's answer for one issue with its evidence; nil for an issue the catalog lacks.
    /// `institution`: the grant of the institution covering the request's address (E30), added to
    /// the account's own facts for this answer only.
    package func explain(_ ref: IssueRef, for accountId: String, adding institution: Grant? = nil) throws(GatewayError) -> IssueExplanation? {
        var facts = try stored { () throws(StoreError) in try accounts.facts(of: accountId) }
        if let institution { facts.grants.append(institution) }
        let state = catalog.state
        let entitlements = entitlements.evaluate(facts, state, clock.now())
        return IssueExplainer.explain(ref, entitlements: entitlements, facts: facts, catalog: state.snapshot)
    }

    /// The history events behind the evidence: how the entitling and the refunded transactions
    /// arrived and changed, how their subscriptions came to the account, and the entitling grant's
    /// events (empty for facts older than the history).
    package func evidenceHistory(_ e: IssueExplanation, of accountId: String) throws(GatewayError) -> [HistoryEvent] {
        let evidence = [e.transaction, e.refunded].compactMap { $0 }
        guard !evidence.isEmpty || e.grant != nil else { return [] }
        given?.settle(accountId)
        return try stored { () throws(StoreError) in
            try store.historyEvents(ofAccount: accountId, transactions: Set(evidence.map(\.transactionId)),
                                    subscriptions: Set(evidence.map(\.originalTransactionId)),
                                    grants: Set([e.grant?.grantId].compactMap { $0 }))
        }
    }
}
