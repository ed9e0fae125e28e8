import GatewayStore

/// An account's history as support reads it (http-api.md, Support), in pages. E30's grants given
/// and queued for the history are waited for first, so what an account was given is there when
/// its history is asked right after.
package struct AccountHistory: Sendable {
    private let store: any GatewayStore
    private let given: InstitutionAccounts?

    package init(store: any GatewayStore, given: InstitutionAccounts? = nil) { self.store = store; self.given = given }

    /// One page after `after` (a sequence), at most `limit` events; nil for an unknown account.
    package func page(ofAccount accountId: String, after: Int64?, limit: Int) throws(GatewayError) -> HistoryPage? {
        given?.settle(accountId)
        return try stored { () throws(StoreError) in try store.history(ofAccount: accountId, after: after, limit: limit) }
    }
}
