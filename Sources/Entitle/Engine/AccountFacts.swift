import IssueCatalog

/// An account's merged transactions sorted by what their product is (catalog kinds).
struct AccountFacts {
    /// Auto-renewable transactions, and transactions with a store expiry whose product the
    /// catalog does not know (reported, granting nothing), by subscription. Transactions must be
    /// added in `EntitlementEngine.subscriptionOrder`, so each subscription is one run, in order.
    var subscriptions: [(key: SubscriptionKey, transactions: [Transaction])] = []
    /// E10: unrevoked non-renewing purchases, by each publication their product grants.
    var nonRenewingByPublication: [String: [NonRenewingStack.Purchase]] = [:]
    /// E6 and E11: void non-renewing intervals, free subscriptions.
    var singleIntervals: [ProductInterval] = []
    /// E14: bought issues and whether the purchase was revoked. A ref bought twice is entitled if
    /// any purchase of it stands.
    var issuePurchases: [IssueRef: Bool] = [:]
    var purchases: [PurchaseStatus] = []
    /// (environment, subscription group) pairs where a free trial or introductory offer was used.
    var introConsumedGroups: Set<String> = []

    mutating func add(_ t: Transaction, product: Product?) {
        let revoked = t.revocationDate != nil
        if t.offer == .freeTrial || t.offer == .introductory,
           let group = t.subscriptionGroup ?? product?.subscriptionGroup {
            introConsumedGroups.insert(SubscriptionStateRules.groupKey(t.environment, group))
        }
        guard let product else {
            if t.expiresDate != nil { addToSubscription(t) } else { addPurchase(t, kind: nil, issue: nil) }
            return
        }
        switch product.kind {
        case .autoRenewable:
            addToSubscription(t)
        case .nonRenewing:
            addPurchase(t, kind: .nonRenewing, issue: nil)
            if revoked {
                // E6: what it would have entitled, for the `refunded` explanation.
                if let d = product.duration {
                    singleIntervals.append(ProductInterval(productId: t.productId, period: ActivePeriod(
                        start: t.purchaseDate, end: d.added(to: t.purchaseDate)), kind: .void))
                }
            } else {
                for publicationId in product.grants {
                    nonRenewingByPublication[publicationId, default: []]
                        .append(NonRenewingStack.Purchase(transaction: t, duration: product.duration))
                }
            }
        case .free:
            addPurchase(t, kind: .free, issue: nil)
            // E11: [purchaseDate, ∞) unless revoked.
            singleIntervals.append(ProductInterval(productId: t.productId,
                                                   period: ActivePeriod(start: t.purchaseDate, end: .distantFuture),
                                                   kind: revoked ? .void : .service))
        case .issue:
            addPurchase(t, kind: .issue, issue: product.issue)
            if let ref = product.issue { issuePurchases[ref] = (issuePurchases[ref] ?? true) && revoked }
        }
    }

    private mutating func addToSubscription(_ t: Transaction) {
        if let last = subscriptions.last?.key, last.environment == t.environment,
           last.originalTransactionId == t.originalTransactionId {
            subscriptions[subscriptions.count - 1].transactions.append(t)
        } else {
            subscriptions.append((SubscriptionKey(environment: t.environment, originalTransactionId: t.originalTransactionId), [t]))
        }
    }

    private mutating func addPurchase(_ t: Transaction, kind: Product.Kind?, issue: IssueRef?) {
        purchases.append(PurchaseStatus(productId: t.productId, transactionId: t.transactionId,
                                        environment: t.environment, issue: issue,
                                        state: t.revocationDate == nil ? .active : .revoked,
                                        kind: kind, purchaseDate: t.purchaseDate))
    }
}
