import Testing
import TestSupport
import Entitle
import IssueCatalog
import Wire

/// E36 on a few hundred random accounts: the report's evidence (`CirculationDerivation`) decided
/// per issue (`CirculationWindow`) counts exactly the accounts the engine's ordinary issue list
/// entitles (retractions and free flags set aside, as reports.md counts them), and names the basis,
/// store, product and subscription a slow statement of reports.md's definitions names
/// (`CirculationReference`).
@Suite struct CirculationPropertyTests {
    /// The catalog as the report reads it: retracted issues counted as published, free ones as not free.
    func reportCatalog(_ a: RandomAccount) -> CatalogSnapshot {
        var catalog = a.catalog
        for i in catalog.issues.indices { catalog.issues[i].retractedAt = nil; catalog.issues[i].free = false }
        return CatalogSnapshot(catalog)
    }

    @Test func e36TheReportAgreesWithTheEngineAndAReferenceFromTheFacts() {
        var compared = 0, counted = 0
        RandomAccount.forEach(600, seed: 36) { rng, a in
            var grants: [Grant] = []
            for n in 0..<Int.random(in: 0...2, using: &rng) {
                var grant = RandomAccount.grant(&rng, id: "g\(n)")
                if rng.chance(50) { grant.source = "newsroom" }
                if rng.chance(15) { grant.revokedAt = grant.start }
                grants.append(grant)
            }
            let facts = AccountFacts(transactions: a.transactions, renewals: a.renewals, grants: grants)
            let evidence = CirculationDerivation.evidence(catalog: EntitlementCatalog(a.snapshot), facts: facts, policy: a.policy)
            let engine = EntitlementEngine.evaluate(catalog: reportCatalog(a), facts: facts, policy: a.policy, now: a.now)
            let reference = CirculationReference.decisions(a, grants: grants)
            let prepared = EntitlementCatalog(a.snapshot)
            for issue in a.catalog.issues where issue.publishedAt <= a.now {
                guard let window = prepared.circulationWindow(of: issue.ref, asOf: a.now) else { continue }
                let deciding = window.deciding(evidence.filter { $0.publicationId == issue.publicationId })
                let entitled = engine.entitlement(for: issue.ref)?.entitled ?? false
                let got = deciding.map {
                    CirculationReference.Decision(basis: $0.basis, store: $0.store, productId: $0.productId,
                                                  subscriptionId: $0.subscriptionId)
                }
                compared += 1
                if got != nil { counted += 1 }
                if (got != nil) != entitled || got != reference[issue.ref] {
                    Issue.record("\(issue.ref): report \(String(describing: got)), engine entitled \(entitled), reference \(String(describing: reference[issue.ref]))")
                }
            }
        }
        #expect(compared > 1000 && counted > 200, "the generator gives issues to compare: \(compared), \(counted) counted")
    }
}
