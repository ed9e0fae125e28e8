import HTTPServer
import Lifecycle
import Testing
@testable import IssueGateway

/// `serve` starts the access log first and stops it last; like every background service it
/// starts once.
@Suite struct AccessLogServiceTests {
    @Test func theAccessLogStopsLastAndOnce() throws {
        let service = AccessLogService(AccessLog(destination: .nullDevice))
        try service.start()
        #expect(throws: ServiceError.cannotStart(.running)) { try service.start() }
        service.stop()
        #expect(service.state == .stopped)
    }
}
