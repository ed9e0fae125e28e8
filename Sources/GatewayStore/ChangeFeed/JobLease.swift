/// The right to run one periodic job (the status poller) in one process at a time among those
/// sharing a store. Held while the holder's session lives: when its process dies, the
/// server ends the session and another process gets the lease on its next `tryHold()`.
public protocol JobLease: AnyObject, Sendable {
    /// True when this process holds the lease now (taking it if it is free). Never throws: a
    /// store that cannot be reached means "not held".
    func tryHold() -> Bool
    /// Gives the lease up (at shutdown), so another process takes over at once.
    func release()
}
