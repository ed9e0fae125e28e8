import Wire

/// E29: a list's hold on its publication's lock (`subscriber_list_locks`): whole lists replace
/// what other lists wrote, so a publication's lists are applied one at a time, in every process.
/// Each unit of work that applies part of the list renews the hold; one that finds another list
/// took the lock over (this one's hold ran out) fails, so that list stops where it was.
public struct SubscriberListLease: Sendable, Equatable {
    /// When the hold is taken or renewed (a holder whose hold ran out by then has let go).
    public var now: Instant
    /// Until when it holds, unless renewed.
    public var until: Instant

    public init(now: Instant, until: Instant) { self.now = now; self.until = until }
}
