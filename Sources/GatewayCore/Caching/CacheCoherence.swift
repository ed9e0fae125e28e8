import Synchronization

/// Whether this process's caches of stored state (account facts and answers, resolved
/// principals) may be served from. Always, on a store one process owns; on a shared
/// store only while the change feed is followed (`ChangeFeedFollower`): a process that cannot
/// hear of other processes' changes reads through to the store instead of serving stale answers.
package final class CacheCoherence: Sendable {
    private let trusted = Atomic<Bool>(true)

    package init() {}

    package var isTrusted: Bool { trusted.load(ordering: .acquiring) }

    package func trust() { trusted.store(true, ordering: .releasing) }

    package func distrust() { trusted.store(false, ordering: .releasing) }
}
