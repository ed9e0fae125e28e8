import Entitle
import IssueCatalog
import Wire

/// Who owns what a support agent has in hand (http-api.md, `GET /v1/lookup`): one read unit of work.
public struct OwnerLookup: Sendable, Equatable {
    public var accountId: String
    /// The store of the subscription or transaction found (http-api.md: everything that reports
    /// one reports its store); nil for an account lookup.
    public var store: Store?
    public var environment: StoreEnvironment?
    public var originalTransactionId: String?
    public var transactionId: String?
    public var appAccountToken: String?
    public var createdAt: Instant?
}

extension GatewayStore {
    /// The owner of a subscription or single purchase of `store`, looked up by its
    /// `originalTransactionId` (an App Store original transaction id, a Stripe `sub_…` id, a Google
    /// Play chain's root purchase token, E23), production first, then sandbox (or only
    /// `environment`); nil when nobody owns it.
    public func lookup(originalTransactionId: String, environment: StoreEnvironment?,
                       store: Store = .appStore) throws(StoreError) -> OwnerLookup? {
        try read { tx throws(StoreError) in
            for env in Self.environments(environment) {
                let key = SubscriptionKey(store: store, environment: env, originalTransactionId: originalTransactionId)
                if let owner = try tx.owner(of: key) {
                    return OwnerLookup(accountId: owner, store: key.store, environment: env,
                                       originalTransactionId: originalTransactionId)
                }
            }
            return nil
        }
    }

    /// The owner of what a Google Play purchase token names (http-api.md, Support): the
    /// subscription whose `linkedPurchaseToken` chain holds it, any token of the chain and not only
    /// its root (E23: the root is the subscription's `originalTransactionId`), or the one-time
    /// purchase it names (the token is its own `originalTransactionId`). The chain is walked back,
    /// nearest token first, through the links the kept snapshots record (E25), each token once.
    public func lookup(purchaseToken: String, environment: StoreEnvironment?) throws(StoreError) -> OwnerLookup? {
        try read { tx throws(StoreError) in
            var chain = [purchaseToken], seen: Set<String> = [purchaseToken], next = 0
            while next < chain.count {
                let token = chain[next]
                next += 1
                for env in Self.environments(environment) {
                    let key = SubscriptionKey(store: .googlePlay, environment: env, originalTransactionId: token)
                    if let owner = try tx.owner(of: key) {
                        return OwnerLookup(accountId: owner, store: .googlePlay, environment: env, originalTransactionId: token)
                    }
                }
                for linked in try tx.linkedPurchaseTokens(of: token) where seen.insert(linked).inserted { chain.append(linked) }
            }
            return nil
        }
    }

    /// The owner of a store customer's subscriptions or purchases (Stripe's `cus_…`), production
    /// first (or only `environment`): the first one somebody owns, in key order.
    public func lookup(customerId: String, store: Store, environment: StoreEnvironment?) throws(StoreError) -> OwnerLookup? {
        try read { tx throws(StoreError) in
            for env in Self.environments(environment) {
                for key in try tx.subscriptions(ofCustomer: customerId, store: store, environment: env) {
                    guard let owner = try tx.owner(of: key) else { continue }
                    return OwnerLookup(accountId: owner, store: store, environment: env, originalTransactionId: key.originalTransactionId)
                }
            }
            return nil
        }
    }

    /// The owner of the subscription or purchase one transaction of `store` belongs to (Google
    /// Play: an `orderId`).
    public func lookup(transactionId: String, environment: StoreEnvironment?,
                       store: Store = .appStore) throws(StoreError) -> OwnerLookup? {
        try read { tx throws(StoreError) in
            for env in Self.environments(environment) {
                let key = TransactionKey(store: store, environment: env, transactionId: transactionId)
                guard let transaction = try tx.transaction(key),
                      let owner = try tx.owner(of: transaction.subscriptionKey) else { continue }
                return OwnerLookup(accountId: owner, store: transaction.store, environment: env,
                                   originalTransactionId: transaction.originalTransactionId, transactionId: transactionId)
            }
            return nil
        }
    }

    /// The account an `appAccountToken` names, or an account by its id.
    public func lookup(account: AccountKey) throws(StoreError) -> OwnerLookup? {
        try read { tx throws(StoreError) in
            let found: Account?
            switch account {
            case .id(let id): found = try tx.account(id: id)
            case .appAccountToken(let token): found = try tx.account(appAccountToken: token)
            }
            return found.map { OwnerLookup(accountId: $0.id, appAccountToken: $0.appAccountToken, createdAt: $0.createdAt) }
        }
    }

    private static func environments(_ only: StoreEnvironment?) -> [StoreEnvironment] {
        only.map { [$0] } ?? [.production, .sandbox]
    }
}

/// How an account is named in a lookup.
public enum AccountKey: Sendable, Equatable {
    case id(String)
    case appAccountToken(String)
}
