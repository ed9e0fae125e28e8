import AppStoreSimulator
import Foundation
import HTTPServer

/// The App Store simulator's routes on the gateway's own `HTTPServer` (one loop, two workers: a
/// developer tool). Lives here only until the HTTP server is a library the `appstore-simulator`
/// executable can link; it then moves there with `AppStoreSimulatorCommand`.
struct SimulatorRouterHost: SimulatorHTTPHost {
    static let workerThreads = 2

    let server: HTTPServer

    init(host: String, port: Int, routes: [SimulatorRoute]) {
        var configuration = HTTPServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.threads = 1
        configuration.workerPools = [.standard: WorkerPoolSize(threads: Self.workerThreads, queueLimit: 1024)]
        let router = RouterBuilder()
        for route in routes {
            router.add(route.method, route.path, execution: route.blocks ? .worker : .inline,
                       maxBodyBytes: route.maxBodyBytes) { request in
                let answer = route.handle(request.body)
                return HTTPResponse(status: answer.status, headers: [("Content-Type", answer.contentType)], body: answer.body)
            }
        }
        server = HTTPServer(configuration: configuration, router: router.freeze(), metrics: Metrics(), accessLog: nil)
    }

    static let factory: SimulatorHTTPHostFactory = { SimulatorRouterHost(host: $0, port: $1, routes: $2) }

    func start() throws -> Int { try server.start() }

    func runUntilSignalled(onStart: (Int) -> Void) throws { try server.runUntilSignalled(onStart: onStart) }

    func stop() {
        server.shutdown()
        server.waitUntilStopped()
    }
}
