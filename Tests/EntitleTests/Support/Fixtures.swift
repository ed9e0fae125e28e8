import Entitle
import IssueCatalog
import Wire

/// Builders that keep the tests about the rules rather than about initialisers.
enum Fx {
    static func at(_ text: String) -> Instant {
        guard let t = Instant(rfc3339: text.contains("T") ? text : text + "T00:00:00Z") else {
            fatalError("bad instant in a test: \(text)")
        }
        return t
    }

    static func monthlyIssues(_ publicationId: String, year: Int, months: ClosedRange<Int>,
                              free: Set<String> = []) -> [Issue] {
        months.map { m in
            let id = "\(year)-" + (m < 10 ? "0\(m)" : "\(m)")
            return Issue(publicationId: publicationId, id: id, title: id, publishedAt: at(id + "-01"),
                         free: free.contains(id))
        }
    }

    static func autoRenewable(_ id: String, grants: [String], group: String = "group", level: Int = 1,
                              discontinuedAt: Instant? = nil) -> Product {
        Product(id: id, kind: .autoRenewable, grants: grants, subscriptionGroup: group, level: level,
                discontinuedAt: discontinuedAt)
    }

    static func tx(_ id: String, _ product: String, _ start: String, _ end: String? = nil,
                   original: String = "o1", env: StoreEnvironment = .production,
                   revoked: String? = nil, kind: RevocationKind? = nil, percentage: Int? = nil,
                   upgraded: Bool = false, offer: OfferKind? = nil,
                   observed: String? = nil, source: TransactionSource = .receipt) -> Transaction {
        Transaction(environment: env, transactionId: id, originalTransactionId: original, productId: product,
                    purchaseDate: at(start), expiresDate: end.map(at), revocationDate: revoked.map(at),
                    revocationKind: kind, revocationPercentage: percentage, isUpgraded: upgraded, offer: offer, source: source, observedAt: observed.map(at))
    }

    static func renewal(_ original: String = "o1", product: String = "monthly.sub", autoRenew: Bool = true,
                        intent: ExpirationIntent? = nil, billingRetry: Bool = false, grace: String? = nil,
                        env: StoreEnvironment = .production, observed: String? = nil,
                        pausedAt: String? = nil, resumesAt: String? = nil) -> RenewalInfo {
        RenewalInfo(environment: env, originalTransactionId: original, productId: product,
                    autoRenewStatus: autoRenew, autoRenewProductId: product, expirationIntent: intent,
                    isInBillingRetry: billingRetry, gracePeriodExpiresDate: grace.map(at),
                    pausedAt: pausedAt.map(at), resumesAt: resumesAt.map(at), source: .receipt, observedAt: observed.map(at))
    }

    /// The In-App Purchase Programming Guide's magazine: issues on the 1st of each month of 2012.
    static let magazine = Catalog(
        publications: [Publication(id: "mag", title: "The Magazine")],
        products: [autoRenewable("monthly.sub", grants: ["mag"])],
        issues: monthlyIssues("mag", year: 2012, months: 1...12))

    static func evaluate(_ catalog: Catalog, _ transactions: [Transaction], _ renewals: [RenewalInfo] = [],
                         policy: EntitlementPolicy = .default, now: String) -> AccountEntitlements {
        EntitlementEngine.evaluate(catalog: CatalogSnapshot(catalog),
                                   facts: AccountFacts(transactions: transactions, renewals: renewals),
                                   policy: policy, now: at(now))
    }
}

extension AccountEntitlements {
    /// Entitled issue ids of a publication, oldest first.
    func entitledIds(_ publicationId: String) -> [String] {
        issues(publicationId: publicationId, entitledOnly: true).map(\.issue.id).reversed()
    }

    func reasons(_ publicationId: String, _ issueId: String) -> [EntitlementReason]? {
        explanation(for: IssueRef(publicationId: publicationId, issueId: issueId))?.reasons
    }
}
