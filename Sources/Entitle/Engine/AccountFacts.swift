import IssueCatalog

/// An account's merged transactions sorted by what their product is (catalog kinds), as
/// positions into `AccountTransactions.table` and interned product numbers.
struct AccountFacts {
    /// Auto-renewable transactions, and transactions with a store expiry whose product the
    /// catalog does not know (reported, granting nothing), by subscription, each in purchase order.
    var subscriptions: [(key: SubscriptionKey, positions: [Int])] = []
    /// E10: unrevoked non-renewing purchases, by each publication (number) their product grants.
    var nonRenewing = PublicationMap<[NonRenewingStack.Purchase]>()
    /// E6 and E11: void non-renewing intervals, free subscriptions.
    var singleIntervals: [ProductInterval] = []
    /// E14: bought issues and whether the purchase was revoked. A ref bought twice is entitled if
    /// any purchase of it stands.
    var issuePurchases: [IssueRef: Bool] = [:]
    var purchases: [PurchaseStatus] = []
    /// (environment, subscription group) pairs where a free trial or introductory offer was used.
    var introConsumedGroups: Set<String> = []

    init(_ transactions: AccountTransactions, catalog: EntitlementCatalog) {
        // Runs of one product are the rule (a subscription renews): look each id up once per run.
        var lastProductId: String?
        var number: Int?
        var product: Product?
        // Borrowed through a buffer: reading a transaction from the array would copy it.
        transactions.table.withUnsafeBufferPointer { table in
            for position in transactions.order {
                if table[position].productId != lastProductId {
                    lastProductId = table[position].productId
                    number = catalog.productNumbers[table[position].productId]
                    product = number.map { catalog.products[$0] }
                }
                add(Fields(table[position]), position: position, number: number, product: product, catalog: catalog)
            }
        }
    }

    private mutating func add(_ t: Fields, position: Int, number: Int?, product: Product?,
                              catalog: EntitlementCatalog) {
        let revoked = t.revocationDate != nil
        if t.offer == .freeTrial || t.offer == .introductory,
           let group = t.subscriptionGroup ?? product?.subscriptionGroup {
            introConsumedGroups.insert(SubscriptionStateRules.groupKey(t.environment, group))
        }
        guard let number, let product else {
            if t.expiresDate != nil { addToSubscription(position, t) } else { addPurchase(t, kind: nil, issue: nil) }
            return
        }
        switch product.kind {
        case .autoRenewable:
            addToSubscription(position, t)
        case .nonRenewing:
            addPurchase(t, kind: .nonRenewing, issue: nil)
            if revoked {
                // E6: what it would have entitled, for the `refunded` explanation.
                if let d = product.duration {
                    singleIntervals.append(ProductInterval(product: number, period: ActivePeriod(
                        start: t.purchaseDate, end: d.added(to: t.purchaseDate)), kind: .void))
                }
            } else {
                let purchase = NonRenewingStack.Purchase(purchaseDate: t.purchaseDate, transactionId: t.transactionId,
                                                         duration: product.duration)
                for publication in catalog.productGrants[number] {
                    nonRenewing.update(publication, default: []) { $0.append(purchase) }
                }
            }
        case .free:
            addPurchase(t, kind: .free, issue: nil)
            // E11: [purchaseDate, ∞) unless revoked.
            singleIntervals.append(ProductInterval(product: number,
                                                   period: ActivePeriod(start: t.purchaseDate, end: .distantFuture),
                                                   kind: revoked ? .void : .service))
        case .issue:
            addPurchase(t, kind: .issue, issue: product.issue)
            if let ref = product.issue { issuePurchases[ref] = (issuePurchases[ref] ?? true) && revoked }
        }
    }

    private mutating func addToSubscription(_ position: Int, _ t: Fields) {
        if let last = subscriptions.last?.key, last.environment == t.environment,
           last.originalTransactionId == t.originalTransactionId {
            subscriptions[subscriptions.count - 1].positions.append(position)
        } else {
            subscriptions.append((SubscriptionKey(environment: t.environment, originalTransactionId: t.originalTransactionId),
                                  [position]))
        }
    }

    /// What sorting by kind reads of a transaction, taken field by field: a whole transaction
    /// read out of the table would be copied.
    private struct Fields {
        let environment: AppStoreEnvironment
        let transactionId: String
        let originalTransactionId: String
        let productId: String
        let purchaseDate: Instant
        let expiresDate: Instant?
        let revocationDate: Instant?
        let offer: OfferKind?
        let subscriptionGroup: String?

        init(_ t: borrowing Transaction) {
            environment = t.environment; transactionId = t.transactionId
            originalTransactionId = t.originalTransactionId; productId = t.productId
            purchaseDate = t.purchaseDate; expiresDate = t.expiresDate; revocationDate = t.revocationDate
            offer = t.offer; subscriptionGroup = t.subscriptionGroup
        }
    }

    private mutating func addPurchase(_ t: Fields, kind: Product.Kind?, issue: IssueRef?) {
        purchases.append(PurchaseStatus(productId: t.productId, transactionId: t.transactionId,
                                        environment: t.environment, issue: issue,
                                        state: t.revocationDate == nil ? .active : .revoked,
                                        kind: kind, purchaseDate: t.purchaseDate))
    }
}
