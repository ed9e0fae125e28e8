import Foundation
import Glibc
@testable import HTTPServer
import Lifecycle
import Metrics
import TestSupport
import Testing

/// Starting once and stopping on a signal, as `issue-gateway serve` does.
@Suite struct HTTPServerLifecycleTests {
    @Test func signalStopsTheServerGracefully() throws {
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.threads = 1
        let server = HTTPServer(configuration: configuration, router: TestServer.defaultRouter(), metrics: Metrics(),
                                accessLog: nil)
        let returned = Gate()
        let answered = Gate()
        let runner = JoinableThread(name: "signalled") {
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
        runner.join()
    }

    @Test func listensOnANameAndOnIPv6Loopback() throws {
        for host in ["localhost", "::1"] {
            var configuration = HTTPServerConfiguration()
            configuration.host = host
            configuration.port = 0
            configuration.threads = 1
            let server = HTTPServer(configuration: configuration, router: TestServer.defaultRouter(), metrics: Metrics(),
                                    accessLog: nil)
            let port = try server.start()
            #expect(port > 0)
            server.shutdown()
            server.waitUntilStopped()
        }
    }

    @Test func unknownHostIsAnError() {
        var configuration = HTTPServerConfiguration()
        configuration.host = "no-such-host.invalid"
        configuration.port = 0
        let server = HTTPServer(configuration: configuration, router: RouterBuilder().freeze(), metrics: Metrics(), accessLog: nil)
        #expect(throws: SystemError.self) { try server.start() }
    }

    @Test func portInUseIsAnErrorNotASharedPort() throws {
        let first = try TestServer()
        defer { first.stop() }
        var configuration = HTTPServerConfiguration()
        configuration.port = first.port
        let second = HTTPServer(configuration: configuration, router: RouterBuilder().freeze(), metrics: Metrics(), accessLog: nil)
        #expect(throws: SystemError.self) { try second.start() }
    }

    @Test func secondStartIsRefused() throws {
        let server = try TestServer()
        defer { server.stop() }
        #expect(throws: HTTPServerStartError.alreadyStarted) { try server.server.start() }
    }
}
