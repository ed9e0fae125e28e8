import TestSupport
import Testing
import Entitle
import IssueCatalog
import Wire

/// `issuesStableUntil` promises that the issue lists do not change before it with the same facts
/// and catalog; a server keeps rendered lists on that promise. Checked over random accounts at
/// random later instants, for every publication and for all together.
@Suite struct StableListPropertyTests {
    static let cases = 2_000

    @Test func listsHoldUntilTheInstantTheEngineNames() {
        var sawFiniteBound = 0
        RandomAccount.forEach(Self.cases, seed: 18) { rng, a in
            let first = a.evaluate()
            for publication in [nil, "p1", "p2"] as [String?] {
                let until = first.issuesStableUntil(publicationId: publication)
                #expect(until > a.now)
                let span = until == .distantFuture ? 400 * RandomAccount.day
                    : until.millisecondsSinceEpoch - a.now.millisecondsSinceEpoch
                if until != .distantFuture { sawFiniteBound += 1 }
                // A random instant inside the span, and its last millisecond.
                for offset in [Int64.random(in: 0..<span, using: &rng), span - 1] {
                    let later = a.evaluate(now: a.now.adding(milliseconds: offset))
                    for entitledOnly in [false, true] {
                        #expect(later.issues(publicationId: publication, entitledOnly: entitledOnly)
                                == first.issues(publicationId: publication, entitledOnly: entitledOnly))
                    }
                }
            }
        }
        #expect(sawFiniteBound > Self.cases, "the generator must produce lists that do change later")
    }
}
