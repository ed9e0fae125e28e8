/// Remembers which keys were invalidated recently, so that a value loaded before an invalidation
/// of its key is not kept, while loads of other keys are (per-key versions, instead of one
/// generation that any change bumps). Not thread-safe: kept beside the cache it guards, under
/// the same lock.
///
/// Bounded: past `capacity` invalidations it forgets them all and raises its floor, so that every
/// ticket taken before is refused. That only costs the loads in flight at that moment their
/// caching, never correctness.
package struct InvalidationLog<Key: Hashable> {
    /// When a load began, to hand back when keeping what it loaded.
    package struct Ticket: Sendable {
        fileprivate let epoch: UInt64
    }

    package let capacity: Int
    private var epoch: UInt64 = 0
    private var floor: UInt64 = 0
    private var latest: [Key: UInt64] = [:]

    package init(capacity: Int) {
        precondition(capacity > 0, "the log must hold at least one invalidation")
        self.capacity = capacity
    }

    package func ticket() -> Ticket { Ticket(epoch: epoch) }

    package mutating func invalidate<Keys: Sequence<Key>>(_ keys: Keys) {
        epoch &+= 1
        for key in keys {
            if latest.count >= capacity {
                latest.removeAll(keepingCapacity: true)
                floor = epoch
            }
            latest[key] = epoch
        }
    }

    /// Refuses every ticket taken before: nothing loaded before now is kept.
    package mutating func invalidateAll() {
        epoch &+= 1
        latest.removeAll(keepingCapacity: true)
        floor = epoch
    }

    /// Whether nothing invalidated `key` since `ticket` was taken.
    package func isCurrent(_ ticket: Ticket, for key: Key) -> Bool {
        ticket.epoch >= floor && (latest[key] ?? 0) <= ticket.epoch
    }
}
