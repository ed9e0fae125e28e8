import Foundation
import GatewayStore
import Lifecycle
import Wire

/// E29: a publication's subscriber lists are applied one at a time, in every process on the store
/// (`GatewayStore.takeSubscriberListLock`): a whole list ends whom it did not name, so two applied
/// at once would end each other's subscribers. A list waits for the one before it; its hold is
/// renewed by each of its units of work and runs out `holdSeconds` after the last, so a process
/// that dies holding it delays the next list by that much at most.
struct SubscriberListLock: Sendable {
    /// Longer than any pause between two units of work of one list (reading and hashing a batch).
    static let holdSeconds: Int64 = 60
    /// How long a list waits for the one before it (a list of a million rows takes minutes).
    static let waitSeconds: Int64 = 600
    /// Between two tries to take the lock (another process's release is not signalled): each try
    /// is a write unit of work, so the pause grows from 20 ms to 1 s rather than taking the
    /// database's one writer from the list being applied 50 times a second for minutes.
    static let retryPauses = RetryBackoff(base: .milliseconds(20), maximum: .seconds(1))

    let store: any GatewayStore
    let clock: any GatewayClock

    /// The hold a unit of work takes or renews now.
    func lease() -> SubscriberListLease {
        let now = clock.now()
        return SubscriberListLease(now: now, until: now.adding(seconds: Self.holdSeconds))
    }

    /// Waits until list `listId` holds the publication's lock; 503 when the list before it still
    /// holds it after `waitSeconds`.
    func take(publicationId: String, listId: String) throws(GatewayError) {
        let deadline = ContinuousClock.now.advanced(by: .seconds(Self.waitSeconds))
        var tries = 0
        while true {
            let lease = lease()
            if try stored({ () throws(StoreError) in try store.takeSubscriberListLock(publicationId: publicationId, listId: listId, lease) }) {
                return
            }
            guard ContinuousClock.now < deadline else {
                throw .listInProgress("another subscriber list of \(publicationId) is still being applied; send this one again later",
                                      retryAfterSeconds: Int(Self.holdSeconds))
            }
            tries += 1
            Thread.sleep(forTimeInterval: Self.retryPauses.seconds(afterFailures: tries))
        }
    }

    /// Lets the lock go. Best effort: a release that fails leaves a hold that runs out by itself.
    func release(publicationId: String, listId: String) {
        _ = try? store.releaseSubscriberListLock(publicationId: publicationId, listId: listId)
    }
}
