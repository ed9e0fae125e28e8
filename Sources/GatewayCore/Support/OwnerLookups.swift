import Entitle
import GatewayStore

/// What a support agent has in hand (http-api.md, Support, `GET /v1/lookup`).
package enum LookupKey: Sendable, Equatable {
    case originalTransactionId(String), transactionId(String), appAccountToken(String), accountId(String)
    case stripeSubscriptionId(String), stripeCustomerId(String)
    /// Google Play (E23): a token roots its chain's subscription, an order is a transaction.
    case purchaseToken(String), orderId(String)
    /// E29: the account holding a print subscriber's claim.
    case printSubscriber(publicationId: String, customerNumber: String)
}

/// Who owns what a support agent has in hand, across the whole store.
package struct OwnerLookups: Sendable {
    private let store: any GatewayStore

    package init(store: any GatewayStore) { self.store = store }

    /// The owner, or nil when nobody owns it. `environment` narrows a transaction lookup; nil:
    /// production first.
    package func owner(of key: LookupKey, in environment: StoreEnvironment?) throws(GatewayError) -> OwnerLookup? {
        try stored { () throws(StoreError) -> OwnerLookup? in
            switch key {
            case .originalTransactionId(let id): try store.lookup(originalTransactionId: id, environment: environment)
            case .transactionId(let id): try store.lookup(transactionId: id, environment: environment)
            case .appAccountToken(let token): try store.lookup(account: .appAccountToken(token.lowercased()))
            case .accountId(let id): try store.lookup(account: .id(id))
            case .stripeSubscriptionId(let id): try store.lookup(originalTransactionId: id, environment: environment, store: .stripe)
            case .stripeCustomerId(let id): try store.lookup(customerId: id, store: .stripe, environment: environment)
            // Google Play (E23): a token is one of its chain's (any, not only the root), an order a transaction.
            case .purchaseToken(let token): try store.lookup(purchaseToken: token, environment: environment)
            case .orderId(let id): try store.lookup(transactionId: id, environment: environment, store: .googlePlay)
            case .printSubscriber(let publicationId, let customerNumber):
                try store.lookup(publicationId: publicationId, customerNumber: customerNumber)
            }
        }
    }
}
