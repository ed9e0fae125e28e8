import Entitle
import GatewayStore
import Wire

/// readers.md E35: `DELETE /v1/accounts/{accountId}` and `GET …/export`. Deleting is one unit of
/// work (`GatewayStore.deleteAccount`); afterwards every process forgets the account's facts
/// and secrets (this one at once, the others through the change feed).
package struct AccountDeletions: Sendable {
    private let store: any GatewayStore
    private let accounts: AccountFactsCache
    private let authenticator: Authenticator
    private let catalog: CatalogCache
    private let engine: EntitlementEvaluator
    private let events: EventPolicy
    private let clock: any GatewayClock
    /// The Google Play packages configured: one names a Play subscription's manage URL.
    private let googlePlayPackages: [String]

    package init(store: any GatewayStore, accounts: AccountFactsCache, authenticator: Authenticator, catalog: CatalogCache,
                 engine: EntitlementEvaluator, events: EventPolicy, clock: any GatewayClock, googlePlayPackages: Set<String>) {
        self.store = store; self.accounts = accounts; self.authenticator = authenticator; self.catalog = catalog
        self.engine = engine
        self.events = events; self.clock = clock; self.googlePlayPackages = googlePlayPackages.sorted()
    }

    /// Deletes the account; the subscriptions that will still bill. `notFound` for an account
    /// that does not exist (or no longer does).
    package func delete(_ accountId: String) throws(GatewayError) -> [StillBilling] {
        let now = clock.now()
        guard let deleted = try stored({ () throws(StoreError) in try store.deleteAccount(accountId, at: now, events: events) }) else {
            throw .notFound("no account \(accountId)")
        }
        authenticator.forget(accountId: accountId)
        accounts.invalidate([accountId])
        let state = catalog.state
        let facts = AccountFacts(transactions: deleted.transactions, renewals: deleted.renewalInfos, grants: [])
        return StillBilling.subscriptions(of: engine.evaluate(facts, state, now).subscriptions, catalog: state.snapshot) { key in
            package(of: deleted.playReceipts[key])
        }
    }

    /// Everything kept about the account.
    package func export(_ accountId: String) throws(GatewayError) -> AccountRecords {
        guard let records = try stored({ () throws(StoreError) in try store.accountRecords(accountId) }) else {
            throw .notFound("no account \(accountId)")
        }
        return records
    }

    /// The package a Play subscription's receipt names, if configured; else the only one configured.
    private func package(of receipt: String?) -> String? {
        if let receipt, let named = GooglePlayIngestion.parseReceipt(receipt)?.packageName, googlePlayPackages.contains(named) {
            return named
        }
        return googlePlayPackages.count == 1 ? googlePlayPackages.first : nil
    }
}
