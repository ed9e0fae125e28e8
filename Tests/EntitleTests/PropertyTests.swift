import TestSupport
import Testing
import Entitle
import IssueCatalog

/// Properties of the engine over 10,000 random accounts each (seeded: failures reproduce).
@Suite struct PropertyTests {
    static let cases = 10_000

    func forEachCase(seed: UInt64, _ body: (inout SplitMix64, RandomAccount) -> Void) {
        RandomAccount.forEach(Self.cases, seed: seed, body)
    }

    /// Everything an answer says, compared as values (not descriptions: those are slow to build).
    struct Fingerprint: Equatable {
        var issues: [IssueEntitlement]
        var subscriptions: [SubscriptionStatus]
        var purchases: [PurchaseStatus]
        var periods: [[ActivePeriod]]
    }

    func fingerprint(_ r: AccountEntitlements) -> Fingerprint {
        Fingerprint(issues: r.issues(publicationId: nil, entitledOnly: false), subscriptions: r.subscriptions,
                    purchases: r.purchases, periods: ["p1", "p2"].map { r.periods(of: $0) })
    }

    @Test func e1AnyPermutationAndRepetitionGivesTheSameAnswer() {
        forEachCase(seed: 1) { rng, a in
            var shuffled = a.transactions.shuffled(using: &rng)
            if let again = a.transactions.randomElement(using: &rng) { shuffled.insert(again, at: 0) }
            let renewals = (a.renewals + a.renewals.prefix(1)).shuffled(using: &rng)
            #expect(fingerprint(a.evaluate()) == fingerprint(a.evaluate(transactions: shuffled, renewals: renewals)))
        }
    }

    /// E6, with E8's clarification: a refunded renewal entitles nothing, yet still ends the
    /// subscription where it would have, so the grace that follows it may come later (never
    /// earlier). Whatever it adds is entitled by grace alone.
    @Test func e6AddingARefundedTransactionAddsNothingButLaterGrace() {
        forEachCase(seed: 2) { rng, a in
            let products = ["a", "b", "n", "i", "f"]
            let start = RandomAccount.instant(day: Int64.random(in: 0..<400, using: &rng), &rng)
            let product = products.randomElement(using: &rng)!
            let refunded = Transaction(
                environment: .production, transactionId: "refunded", originalTransactionId: rng.chance(50) ? "s0" : "refunded",
                productId: product, purchaseDate: start,
                expiresDate: start.adding(milliseconds: Int64.random(in: 1...40, using: &rng) * RandomAccount.day),
                revocationDate: start, source: .receipt)
            let before = a.evaluate().entitledRefs
            let after = a.evaluate(transactions: a.transactions + [refunded]).issues(publicationId: nil, entitledOnly: true)
            let added = after.filter { !before.contains($0.issue.ref) }
            #expect(added.allSatisfy { $0.reasons == [.gracePeriod] }, "\(added.map(\.issue.ref))")
        }
    }

    /// E21: a grant only adds; revoking it (E6 for grants) gives back the previous answer exactly.
    @Test func e21AGrantNeverRemovesAnIssueAndRevokingItRestoresTheAnswer() {
        forEachCase(seed: 21) { rng, a in
            let before = a.evaluate()
            var grant = RandomAccount.grant(&rng, id: "g1")
            let granted = a.evaluate(grants: [grant])
            #expect(before.entitledRefs.isSubset(of: granted.entitledRefs))
            grant.revokedAt = a.now
            #expect(fingerprint(a.evaluate(grants: [grant])) == fingerprint(before))
        }
    }

    @Test func e18TheEntitledSetNeverShrinksAsNowAdvances() {
        forEachCase(seed: 3) { rng, a in
            let later = a.now.adding(milliseconds: Int64.random(in: 1...(200 * RandomAccount.day), using: &rng))
            #expect(a.evaluate().entitledRefs.isSubset(of: a.evaluate(now: later).entitledRefs))
        }
    }

    @Test func agreesWithABruteForceReference() {
        forEachCase(seed: 4) { _, a in
            let engine = a.evaluate()
            let entitled = engine.entitledRefs
            #expect(entitled == BruteForceReference.entitled(a))
            // The per-issue answer and the full list agree with the entitled list (checked per
            // item, expected once per case: an expectation per item is slow).
            let disagreeing = engine.issues(publicationId: nil, entitledOnly: false).filter {
                $0.entitled != entitled.contains($0.issue.ref) || engine.isEntitled($0.issue.ref) != $0.entitled
            }
            #expect(disagreeing.isEmpty)
        }
    }
}
