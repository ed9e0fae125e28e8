import Entitle
import GatewayStore
import IssueCatalog
import Wire

/// E36: an issue's circulation from the facts as they stand (`GatewayStore.circulationFacts`:
/// the derived evidence, one indexed query, then a little arithmetic per account).
package struct Circulation: Sendable {
    private let store: any GatewayStore
    private let clock: any GatewayClock

    package init(store: any GatewayStore, clock: any GatewayClock) { self.store = store; self.clock = clock }

    /// 404 for an unknown publication or issue; 409 `not_published` for a scheduled one. A
    /// retracted issue is counted as if published (reports.md).
    package func report(_ ref: IssueRef) throws(GatewayError) -> CirculationReport {
        let now = clock.now()
        let facts: CirculationFacts?
        do { facts = try store.circulationFacts(ref, asOf: now) } catch { throw GatewayError(error) }
        guard let facts, let issue = facts.catalog.snapshot.issue(ref),
              let window = facts.catalog.circulationWindow(of: ref, asOf: now) else {
            throw .notFound("no issue \(ref.issueId) in \(ref.publicationId)")
        }
        guard issue.publishedAt <= now else { throw .notPublished("issue \(ref.issueId) is not published yet") }
        return CirculationReport(issue: issue, window: window, facts: facts)
    }

    /// `issue-gateway reports rebuild`: every account's derived rows made again from its facts.
    package func rebuild() throws(GatewayError) -> Int {
        guard let upkeep = store.factsUpkeep?.upkeep(CirculationUpkeep.self) else { return 0 }
        do { return try upkeep.rebuild(store) } catch { throw GatewayError(error) }
    }
}
