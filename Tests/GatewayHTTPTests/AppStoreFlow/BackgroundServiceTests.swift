@testable import GatewayConfiguration
import Lifecycle
import Testing
import GatewayTesting

/// The gateway's background services end when told: the poller's and the watcher's pauses
/// (five minutes, an hour here) are cut short by `stop`, and `join` returns once their threads have
/// left their loops.
@Suite struct BackgroundServiceTests {
    /// Far longer than a stop takes, far shorter than the poller's pause.
    static let joinBound: Duration = .seconds(10)

    @Test func thePollerStopsAndNeverStartsAgain() throws {
        let flow = try AppStoreFlow()
        let poller = try #require(flow.runtime.poller)
        try poller.start()
        #expect(throws: ServiceError.cannotStart(.running)) { try poller.start() }
        poller.stop()
        #expect(poller.serviceThread.join(timeout: Self.joinBound), "the poller's thread did not end")
        #expect(poller.state == .stopped)
        #expect(throws: ServiceError.cannotStart(.stopped)) { try poller.start() }
    }

    @Test func theCatalogWatcherStops() throws {
        let flow = try AppStoreFlow()
        // An hour between looks: only a stop that wakes it ends it in time.
        let watcher = CatalogWatcher(catalog: flow.runtime.core.catalog, interval: .seconds(3600))
        try watcher.start()
        watcher.stop()
        #expect(watcher.serviceThread.join(timeout: Self.joinBound), "the watcher's thread did not end")
        #expect(watcher.state == .stopped)
    }
}
