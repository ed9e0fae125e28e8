import Lifecycle
import Testing
@testable import IssueGateway

/// The gateway's background services end when told: the poller's and the watcher's pauses
/// (five minutes, one second) are cut short by `stop`, and `join` returns once their threads have
/// left their loops. A stop that did not wake them would run into the time limit.
@Suite(.timeLimit(.minutes(1))) struct BackgroundServiceTests {
    @Test func thePollerStopsAndNeverStartsAgain() throws {
        let flow = try AppStoreFlow()
        let poller = try #require(flow.runtime.poller)
        try poller.start()
        #expect(throws: ServiceError.cannotStart(.running)) { try poller.start() }
        poller.stop()
        poller.join()
        #expect(poller.state == .stopped)
        #expect(throws: ServiceError.cannotStart(.stopped)) { try poller.start() }
    }

    @Test func theCatalogWatcherStops() throws {
        let flow = try AppStoreFlow()
        let watcher = flow.runtime.catalogWatcher
        try watcher.start()
        watcher.stop()
        watcher.join()
        #expect(watcher.state == .stopped)
    }

    @Test func theAccessLogStopsLastAndOnce() throws {
        let service = AccessLogService(AccessLog(destination: .nullDevice))
        try service.start()
        #expect(throws: ServiceError.cannotStart(.running)) { try service.start() }
        service.stop()
        #expect(service.state == .stopped)
    }
}
