import TestSupport
import Entitle
import IssueCatalog
import Wire

/// A random but plausible catalog and account for property tests: two publications, every product
/// kind, subscriptions with gaps, refunds, upgrades, offers, billing retry and grace.
struct RandomAccount {
    static let day: Int64 = 86_400_000
    static let origin = Instant(rfc3339: "2020-01-01T00:00:00Z")!

    var catalog: Catalog { snapshot.catalog }
    let snapshot: CatalogSnapshot
    var transactions: [Transaction]
    var renewals: [RenewalInfo]
    var policy: EntitlementPolicy
    var now: Instant

    /// Calls `body` with `cases` accounts drawn from one seeded generator (failures reproduce),
    /// passing the generator on for the property's own random choices.
    static func forEach(_ cases: Int, seed: UInt64, _ body: (inout SplitMix64, RandomAccount) -> Void) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<cases {
            let account = RandomAccount(&rng)
            body(&rng, account)
        }
    }

    static func instant(day d: Int64, _ rng: inout SplitMix64) -> Instant {
        origin.adding(milliseconds: d * day + Int64.random(in: 0..<day, using: &rng))
    }

    init(_ rng: inout SplitMix64) {
        var issues: [Issue] = []
        for pub in ["p1", "p2"] {
            for i in 0..<Int.random(in: 0...20, using: &rng) {
                issues.append(Issue(publicationId: pub, id: "\(pub)-\(i)", title: "",
                                    publishedAt: Self.instant(day: Int64.random(in: 0..<400, using: &rng), &rng),
                                    free: rng.chance(10),
                                    retractedAt: rng.chance(10) ? Self.origin : nil))
            }
        }
        let someIssue = issues.randomElement(using: &rng)?.ref ?? IssueRef(publicationId: "p1", issueId: "none")
        snapshot = CatalogSnapshot(Catalog(
            publications: [Publication(id: "p1", title: ""), Publication(id: "p2", title: "")],
            products: [
                Product(id: "a", kind: .autoRenewable, grants: ["p1"], subscriptionGroup: "g", level: 2),
                Product(id: "b", kind: .autoRenewable, grants: ["p1", "p2"], subscriptionGroup: "g", level: 1),
                Product(id: "n", kind: .nonRenewing, grants: ["p1"], duration: ISODuration("P1M")),
                Product(id: "i", kind: .issue, grants: [someIssue.publicationId], issue: someIssue),
                Product(id: "f", kind: .free, grants: ["p2"]),
            ],
            issues: issues))
        transactions = []
        renewals = []
        var serial = 0
        for s in 0..<Int.random(in: 0...3, using: &rng) {
            let env: StoreEnvironment = rng.chance(20) ? .sandbox : .production
            var d = Int64.random(in: 0..<300, using: &rng)
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                serial += 1
                let length = Int64.random(in: 1...40, using: &rng)
                let start = Self.instant(day: d, &rng)
                let end = start.adding(milliseconds: length * Self.day)
                let upgraded = rng.chance(10)
                transactions.append(Transaction(
                    environment: env, transactionId: "t\(serial)", originalTransactionId: "s\(s)",
                    productId: rng.chance(50) ? "a" : "b", purchaseDate: start, expiresDate: end,
                    revocationDate: rng.chance(15) || (upgraded && rng.chance(50))
                        ? start.adding(milliseconds: Int64.random(in: 0...(length * Self.day), using: &rng)) : nil,
                    isUpgraded: upgraded, offer: rng.chance(20) ? .freeTrial : nil, source: .receipt))
                d += length + (rng.chance(30) ? Int64.random(in: 1...60, using: &rng) : 0)
            }
            if rng.chance(70) {
                renewals.append(RenewalInfo(
                    environment: env, originalTransactionId: "s\(s)", autoRenewStatus: rng.chance(50),
                    expirationIntent: rng.chance(30) ? .billing : nil, isInBillingRetry: rng.chance(40),
                    gracePeriodExpiresDate: rng.chance(40) ? Self.instant(day: Int64.random(in: 0..<450, using: &rng), &rng) : nil,
                    source: .receipt))
            }
        }
        for product in ["n", "n", "i", "f"] where rng.chance(40) {
            serial += 1
            transactions.append(Transaction(
                environment: .production, transactionId: "t\(serial)", originalTransactionId: "t\(serial)",
                productId: product, purchaseDate: Self.instant(day: Int64.random(in: 0..<400, using: &rng), &rng),
                revocationDate: rng.chance(20) ? Self.origin : nil, source: .receipt))
        }
        policy = EntitlementPolicy(acceptSandbox: rng.chance(50), graceDays: rng.chance(30) ? 5 : 0)
        now = Self.instant(day: Int64.random(in: 0..<450, using: &rng), &rng)
    }

    func evaluate(transactions: [Transaction]? = nil, renewals: [RenewalInfo]? = nil, grants: [Grant] = [],
                  now: Instant? = nil) -> AccountEntitlements {
        EntitlementEngine.evaluate(catalog: snapshot,
                                   facts: AccountFacts(transactions: transactions ?? self.transactions,
                                                       renewals: renewals ?? self.renewals, grants: grants),
                                   policy: policy, now: now ?? self.now)
    }

    /// A random grant (E21) over one or both publications, sometimes open-ended.
    static func grant(_ rng: inout SplitMix64, id: String) -> Grant {
        let start = instant(day: Int64.random(in: 0..<400, using: &rng), &rng)
        let end: Instant? = rng.chance(20) ? nil : start.adding(milliseconds: Int64.random(in: 1...120, using: &rng) * day)
        let publications = rng.chance(50) ? ["p1", "p2"] : [rng.chance(50) ? "p1" : "p2"]
        return Grant(grantId: id, accountId: "a", source: "print", externalId: id, publications: publications,
                     start: start, end: end, createdAt: start)
    }
}

extension AccountEntitlements {
    var entitledRefs: Set<IssueRef> { Set(issues(publicationId: nil, entitledOnly: true).map(\.issue.ref)) }
}
