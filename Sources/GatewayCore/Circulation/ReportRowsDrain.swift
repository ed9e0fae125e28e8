import GatewayStore
import Lifecycle
import Synchronization

/// The reports' rows (E36, E37) derived off the request: the units of work that change an
/// account's facts only mark it due, and this loop, on its own thread in every gateway process,
/// sweeps the marked accounts `batch` at a time (`GatewayStore.sweepDueReportRows`), passing over
/// marks another process's drain holds, then looks again after `interval`, reading on a snapshot
/// (never taking the writer to find nothing). So an account whose facts change all the time is
/// derived about once an interval, not once a change (decision 130). A report drains whatever is
/// still due itself, so this loop only keeps that short (decision 96).
package final class ReportRowsDrain: ThreadBackedService {
    package struct Settings: Sendable {
        package var interval: Duration = .seconds(1)
        /// Accounts derived per unit of work: each holds the writer (SQLite) for about a
        /// millisecond per account.
        package var batch = 100
        /// After a failed unit of work (the store away), the pause before the next.
        package var pauseAfterFailure: Duration = .seconds(5)
        package init() {}
    }

    package let serviceThread = ServiceThread(name: "report-rows")
    private let store: any GatewayStore
    private let settings: Settings
    private let failures = Atomic<Int>(0)

    package init(store: any GatewayStore, settings: Settings = Settings()) { self.store = store; self.settings = settings }

    /// Units of work that failed (the store away, or a collision given up on); for the operator.
    package var failed: Int { failures.load(ordering: .relaxed) }

    /// Derives what is due now, batch after batch (one sweep, `GatewayStore.sweepDueReportRows`);
    /// answers how many accounts (a test awaits this instead of sleeping).
    @discardableResult
    package func drain() throws(StoreError) -> Int {
        guard try store.hasReportRowsDue() else { return 0 }
        return try store.sweepDueReportRows(batch: settings.batch)
    }

    package func run(until stop: StopToken) {
        while !stop.isStopRequested {
            do {
                try drain()
                if stop.pause(for: settings.interval) { return }
            } catch {
                failures.wrappingAdd(1, ordering: .relaxed)
                if stop.pause(for: settings.pauseAfterFailure) { return }
            }
        }
    }
}
