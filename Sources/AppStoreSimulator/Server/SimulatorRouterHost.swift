import Foundation
import HTTPServer
import Metrics

/// The App Store simulator's routes on the project's own `HTTPServer` (one loop, two workers: a
/// developer tool). Its errors are plain text: the simulator plays Apple, not this API.
struct SimulatorRouterHost: Sendable {
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
                let answer = route.handleRequest(SimulatorRequest(body: request.body, parameters: request.pathParameters,
                                                                  query: request.queryParameters(),
                                                                  authorization: request.header("Authorization")))
                var headers = answer.body.isEmpty && answer.status != 200 ? [] : [("Content-Type", answer.contentType)]
                headers += answer.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
                return HTTPResponse(status: answer.status, headers: headers, body: answer.body)
            }
        }
        server = HTTPServer(configuration: configuration, router: router.freeze(), metrics: Metrics(), accessLog: nil)
    }

    func start() throws -> Int { try server.start() }

    func runUntilSignalled(onStart: (Int) -> Void) throws { try server.runUntilSignalled(onStart: onStart) }

    func stop() {
        server.shutdown()
        server.waitUntilStopped()
    }
}
