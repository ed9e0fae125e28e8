import Testing
import TestSupport
@testable import Entitle
import IssueCatalog
import Wire

/// E36 from evidence whose touching intervals are joined (`CirculationIntervalJoin`, decision 120)
/// decides every issue instant as the evidence of one item per period does: same accounts, same
/// basis, store, product and subscription (decision 87's tie inside a subscription included).
@Suite struct CirculationIntervalJoinTests {
    typealias Decision = CirculationReference.Decision

    static func decision(_ item: CirculationEvidence?) -> Decision? {
        item.map { Decision(basis: $0.basis, store: $0.store, productId: $0.productId, subscriptionId: $0.subscriptionId) }
    }

    /// Every instant where some item begins or ends, and the instant before it: where a join could
    /// change which item holds an issue.
    static func instants(_ items: [CirculationEvidence], upTo now: Instant) -> Set<Instant> {
        var out: Set<Instant> = [now]
        for item in items {
            for edge in [item.start, item.end] where edge < now {
                out.insert(edge); out.insert(edge.adding(milliseconds: -1))
            }
        }
        return out
    }

    @Test func e36JoinedEvidenceDecidesEveryIssueInstantAsThePiecesDo() {
        var instantsCompared = 0, joinedAway = 0, decided = 0
        RandomAccount.forEach(800, seed: 120) { rng, a in
            var grants: [Grant] = []
            for n in 0..<Int.random(in: 0...2, using: &rng) {
                var grant = RandomAccount.grant(&rng, id: "g\(n)")
                if rng.chance(50) { grant.source = "newsroom" }
                grants.append(grant)
            }
            let facts = AccountFacts(transactions: a.transactions, renewals: a.renewals, grants: grants)
            let catalog = EntitlementCatalog(a.snapshot)
            let pieces = CirculationDerivation.pieces(catalog: catalog, facts: facts, policy: a.policy)
            let joined = CirculationDerivation.evidence(catalog: catalog, facts: facts, policy: a.policy)
            joinedAway += pieces.count - joined.count
            #expect(joined.count <= pieces.count)
            #expect(joined.filter { $0.kind != .interval } == pieces.filter { $0.kind != .interval },
                    "unlocks and single issues are kept as they are")
            for publicationId in ["p1", "p2"] {
                let ofPieces = pieces.filter { $0.publicationId == publicationId }
                let ofJoined = joined.filter { $0.publicationId == publicationId }
                for t in Self.instants(ofPieces, upTo: a.now) {
                    let next = t.adding(milliseconds: Int64.random(in: 1...(40 * RandomAccount.day), using: &rng))
                    let window = CirculationWindow(issueId: "x", publishedAt: t, nextPublishedAt: next, asOf: a.now)
                    let expected = Self.decision(window.deciding(ofPieces))
                    let got = Self.decision(window.deciding(ofJoined))
                    instantsCompared += 1
                    if expected != nil { decided += 1 }
                    if got != expected {
                        Issue.record("\(publicationId) at \(t): joined \(String(describing: got)), pieces \(String(describing: expected))")
                    }
                }
            }
        }
        #expect(instantsCompared > 5000 && decided > 1000 && joinedAway > 250,
                "the generator gives joins and instants: \(instantsCompared) compared, \(decided) decided, \(joinedAway) joined away")
    }

    static let day: Int64 = 86_400_000

    static func interval(_ product: String, _ from: Int64, _ to: Int64, subscription: String = "s1") -> CirculationEvidence {
        CirculationEvidence(kind: .interval, publicationId: "p1", start: Instant(millisecondsSinceEpoch: from * day),
                            end: Instant(millisecondsSinceEpoch: to * day), basis: .paid, store: .appStore,
                            productId: product, subscriptionId: subscription, beganAt: Instant(millisecondsSinceEpoch: 0))
    }

    @Test func e36RenewalsOfOneProductBecomeOneInterval() {
        let joined = CirculationIntervalJoin.joined([Self.interval("a", 0, 30), Self.interval("a", 30, 60), Self.interval("a", 60, 90)])
        #expect(joined == [Self.interval("a", 0, 90)])
    }

    @Test func e36PeriodsWithAGapOrAnotherSubscriptionStayApart() {
        let items = [Self.interval("a", 0, 30), Self.interval("a", 31, 60), Self.interval("a", 60, 90, subscription: "s2")]
        #expect(Set(CirculationIntervalJoin.joined(items)) == Set(items))
    }

    /// Decision 87: inside one subscription the latest start decides. An upgrade's period of
    /// product b starting on day 20 decides day 25 over a's period begun on day 0, but not over
    /// a's renewal begun on day 30 that holds day 35: joining a's periods would make a start on
    /// day 0 and let b decide day 35.
    @Test func e36NoJoinOverAnotherProductOfTheSameSubscription() {
        let items = [Self.interval("a", 0, 30), Self.interval("a", 30, 60), Self.interval("b", 20, 40)]
        let joined = CirculationIntervalJoin.joined(items)
        #expect(Set(joined) == Set(items))
        let window = CirculationWindow(issueId: "x", publishedAt: Instant(millisecondsSinceEpoch: 35 * Self.day),
                                       nextPublishedAt: .distantFuture, asOf: .distantFuture)
        #expect(window.deciding(joined)?.productId == "a")
        // Past the other product's period, a's later renewals join.
        let later = CirculationIntervalJoin.joined(items + [Self.interval("a", 60, 90)])
        #expect(Set(later) == Set(items.dropLast(2) + [Self.interval("a", 30, 90), Self.interval("b", 20, 40)]))
    }
}
