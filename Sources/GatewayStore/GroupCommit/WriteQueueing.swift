/// A store whose write units of work queue for one writer and share its commits (`GroupCommit`):
/// how many wait for their turn now (a gauge, and what a test waits on to build a group).
public protocol WriteQueueing {
    var queuedWrites: Int { get }
}
