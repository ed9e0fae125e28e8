import GatewayStore

/// Reader accounts (http-api.md, Accounts and entitlements): made with a secret shown once and
/// stored only as its hash, optionally bound to an app's `appAccountToken` (E4's V2 rule).
package struct ReaderAccounts: Sendable {
    private let store: any GatewayStore
    private let identifiers: Identifiers
    private let clock: any GatewayClock

    package init(store: any GatewayStore, identifiers: Identifiers, clock: any GatewayClock) {
        self.store = store; self.identifiers = identifiers; self.clock = clock
    }

    /// A new account and its secret in clear, the only time it is shown. `appAccountToken` is a
    /// lowercase UUID another account may not hold.
    package func create(appAccountToken: String?) throws(GatewayError) -> (account: Account, token: String) {
        let token = try identifiers.newSecret()
        let account = Account(id: "acct-" + (try identifiers.newIdentifier()), tokenHash: try identifiers.hash(token),
                              appAccountToken: appAccountToken, createdAt: clock.now())
        switch try stored({ () throws(StoreError) in try store.createAccount(account) }) {
        case .created: return (account, token)
        case .appAccountTokenInUse: throw .appAccountTokenInUse
        case .taken: throw .conflict("account \(account.id), its token or its appAccountToken is taken")
        }
    }

    package func exists(_ accountId: String) throws(GatewayError) -> Bool {
        try stored { () throws(StoreError) in try store.account(id: accountId) } != nil
    }
}
