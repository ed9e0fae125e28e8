import IssueCatalog
import Wire

/// An account's merged transactions sorted by what their product is (catalog kinds), as
/// positions into `AccountTransactions.table` and interned product numbers.
struct FactsByKind {
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
    /// E14: the unrevoked purchases of each bought issue, as table positions (E36 names them).
    var issueBuyers: [IssueRef: [Int]] = [:]
    var purchases: [PurchaseStatus] = []
    /// (store, environment, subscription group) where a free trial or introductory offer was used.
    var introConsumedGroups: Set<String> = []

    init(_ transactions: AccountTransactions, catalog: EntitlementCatalog) {
        // Runs of one product are the rule (a subscription renews): look each id up once per run.
        // Fields are read one by one: a transaction (or product) read whole would be copied.
        var lastProduct: StoreProductRef?
        var number: Int?
        let table = transactions.table
        for position in transactions.order {
            if table[position].productId != lastProduct?.storeProductId || table[position].store != lastProduct?.store {
                let product = StoreProductRef(store: table[position].store, storeProductId: table[position].productId)
                lastProduct = product
                number = catalog.productNumbers[product]
            }
            if table[position].offer == .freeTrial || table[position].offer == .introductory,
               let group = table[position].subscriptionGroup ?? number.flatMap({ catalog.products[$0].subscriptionGroup }) {
                introConsumedGroups.insert(SubscriptionStateRules.groupKey(table[position].store, table[position].environment, group))
            }
            let kind = number.map { catalog.products[$0].kind }
            if kind == .autoRenewable || (kind == nil && table[position].expiresDate != nil) {
                addToSubscription(position, table[position].store, table[position].environment,
                                  table[position].originalTransactionId)
            } else {
                add(Fields(table, position), position: position, number: number, catalog: catalog)
            }
        }
    }

    /// A transaction that is not part of a subscription.
    private mutating func add(_ t: Fields, position: Int, number: Int?, catalog: EntitlementCatalog) {
        let revoked = t.revocationDate != nil
        guard let number else { return addPurchase(t, kind: nil, issue: nil) }
        let product = catalog.products[number]
        switch product.kind {
        case .autoRenewable:
            return  // a subscription's
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
                                                         duration: product.duration, transaction: position, product: number)
                for publication in catalog.productGrants[number] {
                    nonRenewing[slot: nonRenewing.slot(publication, default: [])].append(purchase)
                }
            }
        case .free:
            addPurchase(t, kind: .free, issue: nil)
            // E11: [purchaseDate, ∞) unless revoked.
            singleIntervals.append(ProductInterval(product: number,
                                                   period: ActivePeriod(start: t.purchaseDate, end: .distantFuture),
                                                   kind: revoked ? .void : .service, transaction: position))
        case .issue:
            addPurchase(t, kind: .issue, issue: product.issue)
            if let ref = product.issue {
                issuePurchases[ref] = (issuePurchases[ref] ?? true) && revoked
                if !revoked { issueBuyers[ref, default: []].append(position) }
            }
        }
    }

    private mutating func addToSubscription(_ position: Int, _ store: Store, _ environment: StoreEnvironment,
                                            _ originalTransactionId: String) {
        // Compared in place: a copy of the last element would share its positions, and the
        // append would then copy them all.
        let last = subscriptions.count - 1
        if last >= 0, subscriptions[last].key.environment == environment, subscriptions[last].key.store == store,
           subscriptions[last].key.originalTransactionId == originalTransactionId {
            subscriptions[last].positions.append(position)
        } else {
            subscriptions.append((SubscriptionKey(store: store, environment: environment,
                                                  originalTransactionId: originalTransactionId), [position]))
        }
    }

    /// What sorting by kind reads of a transaction, taken field by field: a whole transaction
    /// read out of the table would be copied.
    private struct Fields {
        let store: Store
        let environment: StoreEnvironment
        let transactionId: String
        let productId: String
        let purchaseDate: Instant
        let revocationDate: Instant?

        init(_ t: [Transaction], _ i: Int) {
            store = t[i].store; environment = t[i].environment; transactionId = t[i].transactionId
            productId = t[i].productId
            purchaseDate = t[i].purchaseDate; revocationDate = t[i].revocationDate
        }
    }

    private mutating func addPurchase(_ t: Fields, kind: Product.Kind?, issue: IssueRef?) {
        purchases.append(PurchaseStatus(productId: t.productId, transactionId: t.transactionId, store: t.store,
                                        environment: t.environment, issue: issue,
                                        state: t.revocationDate == nil ? .active : .revoked,
                                        kind: kind, purchaseDate: t.purchaseDate))
    }
}
