import Foundation
import Synchronization

/// The simulator on HTTP, on the project's own HTTP server (`SimulatorRouterHost`):
///
/// - `POST /verifyReceipt` (production) and `POST /sandbox/verifyReceipt` (sandbox): Apple's
///   verifyReceipt, answered from the script. Point `ISSUE_GATEWAY_APPSTORE_PRODUCTION_URL` and
///   `_SANDBOX_URL` at `productionURL` and `sandboxURL`.
/// - `/inApps/…` (production) and `/sandbox/inApps/…` (sandbox): the App Store Server API, once
///   the gateway's public key is registered (`/simulator/server-api` or `configureServerAPI`).
/// - `/simulator/…`: scripted changes, signed transactions, notifications, the test root
///   (docs/appstore-simulator.md).
public final class AppStoreSimulatorServer: Sendable {
    public let simulator: AppStoreSimulator
    public let hostName: String
    private let host: SimulatorRouterHost
    private let boundPort = Mutex(0)

    /// The bound port once started.
    public var port: Int { boundPort.withLock { $0 } }

    /// Ready to serve on `host:port` (0: ephemeral); `start()` or `runUntilSignalled` binds it.
    public init(simulator: AppStoreSimulator, host: String = "127.0.0.1", port: Int = 0) {
        self.simulator = simulator
        self.hostName = host
        self.host = SimulatorRouterHost(host: host, port: port, routes: SimulatorRoutes.routes(simulator))
    }

    /// Binds and serves; returns at once.
    @discardableResult
    public func start() throws -> Self {
        let port = try host.start()
        boundPort.withLock { $0 = port }
        return self
    }

    /// For the command line: serves until SIGTERM or SIGINT, then stops gracefully.
    public func runUntilSignalled(onStart: (AppStoreSimulatorServer) -> Void) throws {
        try host.runUntilSignalled { port in
            boundPort.withLock { $0 = port }
            onStart(self)
        }
    }

    public var baseURL: URL {
        let name = hostName.contains(":") ? "[\(hostName)]" : hostName
        return URL(string: "http://\(name):\(port)")!
    }
    public var productionURL: URL { baseURL.appendingPathComponent("verifyReceipt") }
    public var sandboxURL: URL { baseURL.appendingPathComponent("sandbox/verifyReceipt") }
    /// The Server API's base URLs (`ISSUE_GATEWAY_APPSTORE_API_PRODUCTION_URL` / `_SANDBOX_URL`).
    public var serverAPIProductionURL: URL { baseURL }
    public var serverAPISandboxURL: URL { baseURL.appendingPathComponent(String(SimulatorRoutes.sandboxAPIPrefix.dropFirst())) }

    public func stop() { host.stop() }
}
