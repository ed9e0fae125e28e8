import IssueCatalog
import Wire

/// E36's interval evidence stored as few rows as the answer allows: two `.interval` items of one
/// publication whose periods touch (one's `end` is the other's `start`) and that agree on
/// everything E36 reports (basis, store, product, subscription, when it began) become one.
///
/// Why no answer changes (`CirculationWindow.deciding`): the joined item covers exactly the
/// instants its pieces covered, so the same issues are entitled. `decides` looks at `start` only
/// between items that tie on basis, beginning, store and subscription (decision 87: the latest
/// start decides); a joined item starts earlier than its later pieces did, so a piece is never
/// joined to the one before it where such a tying item of another product holds: at the instants
/// whose start moves, every tying item names the same product, and whichever of them decides, the
/// report is the same. Unlocks (E13) are derived before, from the pieces. Pure.
enum CirculationIntervalJoin {
    /// Everything E36 reports of an interval, but its period.
    private struct Reported: Hashable {
        var publicationId: String, basis: CirculationBasis, store: Store?, productId: String?
        var subscriptionId: String, beganAt: Instant
        init(_ item: CirculationEvidence) {
            publicationId = item.publicationId; basis = item.basis; store = item.store; productId = item.productId
            subscriptionId = item.subscriptionId; beganAt = item.beganAt
        }
        /// Items `decides` orders by `start` against this one (decision 87): one subscription's.
        var tie: Reported { var t = self; t.productId = nil; return t }
    }

    static func joined(_ items: [CirculationEvidence]) -> [CirculationEvidence] {
        var groups: [Reported: [CirculationEvidence]] = [:], ties: [Reported: [CirculationEvidence]] = [:]
        var out: [CirculationEvidence] = []
        for item in items {
            guard item.kind == .interval, item.issueId.isEmpty else { out.append(item); continue }
            let reported = Reported(item)
            groups[reported, default: []].append(item)
            ties[reported.tie, default: []].append(item)
        }
        for (reported, group) in groups {
            // The same subscription's intervals of another product: a join must hold none of them.
            let rivals = ties[reported.tie, default: []].filter { $0.productId != reported.productId }
            var pieces = group.sorted { ($0.start, $0.end) < ($1.start, $1.end) }[...]
            var current = pieces.removeFirst()
            for next in pieces {
                if next.start == current.end,
                   !rivals.contains(where: { $0.start < next.end && next.start < $0.end }) {
                    current.end = next.end
                } else {
                    out.append(current)
                    current = next
                }
            }
            out.append(current)
        }
        return out
    }
}
