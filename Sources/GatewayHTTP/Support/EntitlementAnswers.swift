import Entitle
import GatewayCore
import GatewayStore
import HTTPServer
import Wire

/// What the engine says about one account now (E1–E20), and the entitlements answer
/// (http-api.md, Accounts and entitlements) that several areas return after a change.
package struct EntitlementAnswers: Sendable {
    package let accounts: AccountFactsCache
    package let catalog: CatalogCache
    package let engine: EntitlementEvaluator
    package let clock: any GatewayClock

    package init(accounts: AccountFactsCache, catalog: CatalogCache, engine: EntitlementEvaluator, clock: any GatewayClock) {
        self.accounts = accounts; self.catalog = catalog; self.engine = engine; self.clock = clock
    }

    /// `institution`: the grant of the institution covering the request's address (E30), added to
    /// the account's own facts for this answer only.
    package func entitlements(of accountId: String, adding institution: Grant? = nil) throws(GatewayError) -> AccountEntitlements {
        var facts = try stored { () throws(StoreError) in try accounts.facts(of: accountId) }
        if let institution { facts.grants.append(institution) }
        return engine.evaluate(facts, catalog.state, clock.now())
    }

    /// The account's entitlements; the issue-list answer evaluated with them is kept too, so the
    /// list a reader app fetches right after posting a receipt is served from memory.
    package func entitlementsResponse(_ accountId: String) throws(GatewayError) -> HTTPResponse {
        let loaded = try stored { () throws(StoreError) in try accounts.load(accountId) }
        let state = catalog.state
        let answer = engine.evaluate(loaded.facts, state, clock.now())
        accounts.remember(answer.issueListAnswer, catalogRevision: state.revision, accountId, ticket: loaded.ticket)
        return .json(200) { w in w.entitlements(accountId: accountId, answer, grants: loaded.facts.grants) }
    }
}
