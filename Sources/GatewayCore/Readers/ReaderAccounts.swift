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

    /// A new account and its secret in clear, the only time it is shown: the account's first
    /// session (E34), with no device. `appAccountToken` is a lowercase UUID another account may not hold.
    package func create(appAccountToken: String?) throws(GatewayError) -> (account: Account, token: String) {
        let secret = try NewSessionSecret(identifiers)
        let id = "acct-" + (try identifiers.newIdentifier())
        let now = clock.now()
        let account = Account(id: id, tokenHash: id, appAccountToken: appAccountToken, createdAt: now)
        let session = secret.session(on: id, device: SessionDevice(), identity: nil, at: now)
        switch try stored({ () throws(StoreError) in try store.createAccount(account, firstSession: session) }) {
        case .created: return (account, secret.token)
        case .appAccountTokenInUse: throw .appAccountTokenInUse
        case .taken: throw .conflict("account \(account.id), its token or its appAccountToken is taken")
        }
    }

    package func exists(_ accountId: String) throws(GatewayError) -> Bool {
        try stored { () throws(StoreError) in try store.account(id: accountId) } != nil
    }

    /// E32: whether the account exists and was merged into another.
    package func wasMerged(_ accountId: String) throws(GatewayError) -> Bool {
        try stored { () throws(StoreError) in try store.account(id: accountId) }?.mergedInto != nil
    }

    /// The account in a path as E32 answers it: `accountMerged` (the account it was merged
    /// into, at the end of a chain of merges) when `tellsMerges`, else `notFound`, for an account
    /// merged away; `notFound` for none, or for merges that end at no account (a deleted one).
    package func requireLive(_ accountId: String, tellsMerges: Bool) throws(GatewayError) {
        let (account, reached) = try stored { () throws(StoreError) in
            try store.read { tx throws(StoreError) in (try tx.account(id: accountId), try tx.reachedAccount(id: accountId)) }
        }
        guard let account else { throw .notFound("no account \(accountId)") }
        guard account.mergedInto != nil else { return }
        guard tellsMerges, let reached else { throw .notFound("no account \(accountId)") }
        throw .accountMerged(mergedInto: reached.id)
    }
}
