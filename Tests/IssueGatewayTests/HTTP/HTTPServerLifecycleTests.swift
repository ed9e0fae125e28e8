import Foundation
import Glibc
import Testing
@testable import IssueGateway

/// Starting from the environment's settings and stopping on a signal, as `issue-gateway serve` does.
@Suite struct HTTPServerLifecycleTests {
    @Test func signalStopsTheServerGracefully() throws {
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.threads = 1
        let server = HTTPServer(configuration: configuration, router: TestServer.defaultRouter(), metrics: Metrics(),
                                accessLog: nil)
        let returned = Gate()
        let answered = Gate()
        Thread.detachNewThread {
            // SIGUSR2 rather than SIGTERM, so the test process keeps its own SIGTERM handling.
            try? server.runUntilSignalled(signals: [SIGUSR2]) { port in
                if let client = try? TestClient(port: port) {
                    client.send(TestServer.hello)
                    if (try? client.readResponse().status) == 200 { answered.open() }
                }
                kill(getpid(), SIGUSR2)
            }
            returned.open()
        }
        #expect(answered.wait(seconds: 10))
        #expect(returned.wait(seconds: 10))
    }

    @Test func readsListenAndThreadsFromTheEnvironment() throws {
        var configuration = HTTPServerConfiguration()
        try configuration.apply(environment: ["ISSUE_GATEWAY_LISTEN": "[::1]:9090", "ISSUE_GATEWAY_THREADS": "3"])
        #expect(configuration.host == "::1")
        #expect(configuration.port == 9090)
        #expect(configuration.threads == 3)
        try configuration.apply(environment: ["ISSUE_GATEWAY_LISTEN": "0.0.0.0:0"])
        #expect(configuration.host == "0.0.0.0" && configuration.port == 0)
        for bad in ["8080", "::1:80", "host:99999", ":80", "h:x"] {
            #expect(throws: HTTPServerConfiguration.EnvironmentError.self) {
                try configuration.apply(environment: ["ISSUE_GATEWAY_LISTEN": bad])
            }
        }
        #expect(throws: HTTPServerConfiguration.EnvironmentError.self) {
            try configuration.apply(environment: ["ISSUE_GATEWAY_THREADS": "0"])
        }
    }

    @Test func secondStartIsRefused() throws {
        let server = try TestServer()
        defer { server.stop() }
        #expect(throws: HTTPServerError.self) { try server.server.start() }
    }
}
