import AppStoreKit
import Entitle
import GatewayStore
import IssueCatalog
import Lifecycle
import Wire

/// Settings of the notification backfill ("nothing lost").
package struct NotificationBackfillSettings: Sendable {
    /// Pause between passes.
    package var interval: Duration = .seconds(3600)
    /// The first pass of a gateway that never completed one looks back this far.
    package var initialWindow: Duration = .seconds(3 * 24 * 3600)
    /// Each pass starts this long before the last success, so a notification Apple dated just
    /// before it (and delivered late) is not missed; duplicates are dropped by UUID.
    package var overlap: Duration = .seconds(600)
    /// Each pass also asks for `onlyFailures` this far back: Apple's own retries run 72 hours
    /// (appstore.md), and what they never delivered is found here.
    package var failureLookback: Duration = .seconds(7 * 24 * 3600)
    /// Apple keeps 180 days of history in production.
    package var maximumWindow: Duration = .seconds(180 * 24 * 3600)
    /// Windows asked by `POST /v1/appstore/backfill` waiting or running at once; past it the
    /// route answers `rateLimited` (each may be 180 days of Apple's history).
    package var maximumPendingRequests = 2
    /// On a shared store, how often a process that does not hold the backfill's lease asks for it
    /// (the holder's death frees it with its session: another takes over within this).
    package var leaseRetry: Duration = .seconds(15)

    package static let standard = NotificationBackfillSettings()
}

/// Replays the App Store's notification history through the same V2 path as a delivered
/// notification (verified, stored, deduplicated by UUID): on start, then periodically for the
/// window since the last success (and failures only over a longer lookback), and on demand
/// (`POST /v1/appstore/backfill`). Runs on its own thread and a serial queue, never an event loop.
public final class NotificationBackfill: ThreadBackedService {
    /// The `service_marks` name of the last successful pass's start.
    package static let markName = "appstore.notification-backfill"

    private let settings: NotificationBackfillSettings
    private let ingestion: AppStoreIngestion
    private let serverAPI: ServerAPIClient
    private let environments: [StoreEnvironment]
    /// Where requested windows are replayed (the App Store pool).
    private let work: WorkPool
    /// Requested windows waiting or running, and those finished (tests wait on them).
    private let requests = Condition(RequestCounts())
    /// On a store several processes share, only the holder of this lease runs the periodic passes
    /// (periodic jobs run in one process at a time); asked windows run where asked.
    private let lease: (any JobLease)?
    public let serviceThread = ServiceThread(name: "notification-backfill")

    package init(settings: NotificationBackfillSettings, ingestion: AppStoreIngestion, serverAPI: ServerAPIClient,
                 environments: [StoreEnvironment], work: WorkPool) {
        self.settings = settings; self.ingestion = ingestion; self.serverAPI = serverAPI; self.environments = environments
        self.work = work
        lease = (ingestion.store as? any SharedGatewayStore)?.makeJobLease(name: "notification-backfill")
    }

    /// True when this process may run the periodic passes now (always on a store it owns alone).
    public var holdsLease: Bool { lease?.tryHold() ?? true }

    /// A window to replay, as asked.
    package struct Window: Sendable, Equatable {
        package var start: Instant
        package var end: Instant
        package var onlyFailures: Bool

        package init(start: Instant, end: Instant, onlyFailures: Bool) {
            self.start = start; self.end = end; self.onlyFailures = onlyFailures
        }
    }

    /// One periodic pass: the window since the last success, then failures over the lookback.
    /// Records the pass's start as the new last success only when every call succeeded.
    @discardableResult
    package func pass() -> Bool {
        let now = ingestion.clock.now()
        let last = (try? ingestion.store.serviceMark(Self.markName)) ?? nil
        let earliest = now.adding(milliseconds: -Int64(settings.maximumWindow.milliseconds))
        let since = last?.adding(milliseconds: -Int64(settings.overlap.milliseconds))
            ?? now.adding(milliseconds: -Int64(settings.initialWindow.milliseconds))
        let failuresSince = now.adding(milliseconds: -Int64(settings.failureLookback.milliseconds))
        let succeeded = replay(Window(start: max(since, earliest), end: now, onlyFailures: false))
            && replay(Window(start: max(failuresSince, earliest), end: now, onlyFailures: true))
        if succeeded { try? ingestion.store.setServiceMark(Self.markName, at: now) }
        return succeeded
    }

    /// Replays one window in every environment; false when some call did not succeed.
    /// Production's bare 401 counts as "never released there" (nothing to replay) when the
    /// sandbox, asked with the same key, answered: a bad key fails both.
    @discardableResult
    package func replay(_ window: Window) -> Bool {
        var failures: [StoreEnvironment: ServerAPIFailure] = [:]
        var allTaken = true
        for environment in environments {
            let query = ServerAPINotificationQuery(start: window.start, end: window.end, onlyFailures: window.onlyFailures)
            do {
                try serverAPI.notificationHistory(query, in: environment) { records in
                    for record in records where !take(record) { allTaken = false }
                }
            } catch {
                failures[environment] = error
            }
        }
        if failures[.production] == .unauthorized, environments.contains(.sandbox), failures[.sandbox] == nil {
            failures[.production] = nil
        }
        ingestion.counters.serverAPIFailures.increment(by: failures.count)
        return failures.isEmpty && allTaken
    }

    /// Takes one replayed notification; false when it could not be stored for a reason that may
    /// pass (storage busy), so the pass is not counted a success and the window is asked again.
    /// One that will never verify (malformed, refused) counts as taken: asking again cannot help.
    private func take(_ record: ServerAPINotificationRecord) -> Bool {
        do {
            let outcome = try ingestion.takeV2(record.signedPayload)
            if !outcome.result.duplicateNotification { ingestion.counters.backfillReplayed.increment() }
            return true
        } catch {
            ingestion.counters.serverAPIFailures.increment()
            return !error.isTransient
        }
    }

    /// `POST /v1/appstore/backfill`: replays `window` on the App Store pool and returns at once;
    /// false (nothing queued) while `maximumPendingRequests` windows wait or run, or when the
    /// pool's queue is full.
    package func request(_ window: Window) -> Bool {
        let admitted = requests.withLock { counts in
            guard counts.pending < settings.maximumPendingRequests else { return false }
            counts.pending += 1
            return true
        }
        guard admitted else { return false }
        let queued = work.submit { [self] in
            replay(window)
            finished()
        }
        if !queued { requests.withLock { $0.pending -= 1 } }
        return queued
    }

    private func finished() {
        requests.withLock { $0.pending -= 1; $0.finished += 1 }
        requests.broadcast()
    }

    /// Waits until `count` requested windows have been replayed (tests), or `timeout` passes.
    package func waitForRequests(_ count: Int, timeout: Duration) -> Bool {
        requests.withLock(when: { $0.finished >= count }, timeout: timeout) { $0.finished >= count }
    }

    /// A pass on start, then one per interval until stopped; on a shared store only while this
    /// process holds the lease (the others ask every `leaseRetry`; the holder gives it up when it
    /// stops).
    public func run(until stop: StopToken) {
        defer { lease?.release() }
        while !stop.isStopRequested {
            let held = holdsLease
            if held { pass() }
            if stop.pause(for: held ? settings.interval : settings.leaseRetry) { break }
        }
    }
}

/// Requested windows waiting or running, and those finished.
private struct RequestCounts: Sendable {
    var pending = 0
    var finished = 0
}
