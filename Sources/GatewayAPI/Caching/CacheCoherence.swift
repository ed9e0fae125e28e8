import Synchronization

/// Whether this process's caches of stored state (account facts and answers, resolved
/// principals) may be served from (issue 11). Always, on a store one process owns; on a shared
/// store only while the change feed is followed (`ChangeFeedFollower`): a process that cannot
/// hear of other processes' changes reads through to the store instead of serving stale answers.
final class CacheCoherence: Sendable {
    private let trusted = Atomic<Bool>(true)

    init() {}

    var isTrusted: Bool { trusted.load(ordering: .acquiring) }

    func trust() { trusted.store(true, ordering: .releasing) }

    func distrust() { trusted.store(false, ordering: .releasing) }
}
