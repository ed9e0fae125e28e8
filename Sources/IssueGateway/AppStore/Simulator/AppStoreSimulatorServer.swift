import Entitle
import Foundation
import HTTPServer
import Synchronization

/// The simulator on HTTP, built on the gateway's own `HTTPServer` and `Router`:
///
/// - `POST /verifyReceipt` (production) and `POST /sandbox/verifyReceipt` (sandbox): Apple's
///   verifyReceipt, answered from the script. Point `ISSUE_GATEWAY_APPSTORE_PRODUCTION_URL` and
///   `_SANDBOX_URL` at `productionURL` and `sandboxURL`.
/// - `/simulator/…`: scripted changes, signed transactions, notifications, the test root
///   (docs/appstore-simulator.md).
final class AppStoreSimulatorServer: Sendable {
    /// Paths of the two verifyReceipt endpoints.
    static let productionPath = "/verifyReceipt"
    static let sandboxPath = "/sandbox/verifyReceipt"
    /// A control body (a history, a transaction) is small; a whole script is not sent here.
    static let controlBodyBytes = 1 << 20
    /// verifyReceipt bodies: years of renewals make receipts of several MiB, which Apple takes.
    static let verifyReceiptBodyBytes = 8 << 20

    let simulator: AppStoreSimulator
    let server: HTTPServer
    private let boundPort = Mutex(0)

    /// The bound port once started.
    var port: Int { boundPort.withLock { $0 } }

    /// Ready to serve on `host:port` (0: ephemeral); `start()` or `runUntilSignalled` binds it.
    init(simulator: AppStoreSimulator, host: String = "127.0.0.1", port: Int = 0, threads: Int = 1,
         accessLog: AccessLog? = nil) {
        self.simulator = simulator
        var configuration = HTTPServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.threads = threads
        configuration.workerPools = [.standard: WorkerPoolSize(threads: 2, queueLimit: 1024)]
        server = HTTPServer(configuration: configuration, router: Self.router(simulator), metrics: Metrics(), accessLog: accessLog)
    }

    /// Binds and serves; returns at once.
    @discardableResult
    func start() throws -> Self {
        let port = try server.start()
        boundPort.withLock { $0 = port }
        return self
    }

    /// For the CLI: serves until SIGTERM or SIGINT, then stops gracefully.
    func runUntilSignalled(onStart: (AppStoreSimulatorServer) -> Void) throws {
        try server.runUntilSignalled { port in
            boundPort.withLock { $0 = port }
            onStart(self)
        }
    }

    var baseURL: URL {
        let host = server.configuration.host.contains(":") ? "[\(server.configuration.host)]" : server.configuration.host
        return URL(string: "http://\(host):\(port)")!
    }
    var productionURL: URL { baseURL.appendingPathComponent("verifyReceipt") }
    var sandboxURL: URL { baseURL.appendingPathComponent("sandbox/verifyReceipt") }

    func stop() {
        server.shutdown()
        server.waitUntilStopped()
    }

    private static func router(_ simulator: AppStoreSimulator) -> Router {
        let router = RouterBuilder()
        for (path, environment) in [(productionPath, AppStoreEnvironment.production), (sandboxPath, .sandbox)] {
            router.add("POST", path, execution: .inline, maxBodyBytes: verifyReceiptBodyBytes) { request in
                .json(200, Array(simulator.verifyReceipt(requestBody: request.body, at: environment)))
            }
            // Apple answers 21000 to anything but a POST.
            router.add("GET", path, execution: .inline) { _ in .json(200, Array(#"{"status":21000}"#.utf8)) }
        }
        router.add("GET", "/simulator/root.pem", execution: .inline) { _ in
            .text(200, simulator.signer.authority.root.pem, contentType: "application/x-pem-file")
        }
        control(router, "receipts") { (body: SimulatorControl.SetReceipt) throws(AppStoreSimulator.Failure) in
            simulator.setReceipt(body.receipt, body.history)
            return [:]
        }
        control(router, "transactions") { (body: SimulatorControl.AddTransaction) throws(AppStoreSimulator.Failure) in
            try simulator.addTransaction(body.transaction, to: body.receipt)
            return [:]
        }
        control(router, "renewals") { (body: SimulatorControl.SetRenewal) throws(AppStoreSimulator.Failure) in
            try simulator.setRenewal(body.renewal, in: body.receipt)
            return [:]
        }
        control(router, "refunds") { (body: SimulatorControl.Refund) throws(AppStoreSimulator.Failure) in
            try simulator.refund(transactionId: body.transactionId, in: body.receipt, at: body.at, reason: body.reason,
                                 reverse: body.reverse)
            return [:]
        }
        control(router, "outages") { (body: SimulatorControl.Outage) throws(AppStoreSimulator.Failure) in
            try simulator.makeUnavailable(body.receipt, times: body.times)
            return [:]
        }
        control(router, "signed-transactions") { (body: SimulatorControl.Receipt) throws(AppStoreSimulator.Failure) in
            ["signedTransactions": try simulator.signedTransactions(body.receipt)]
        }
        control(router, "notifications") { (body: SimulatorControl.Notify) throws(AppStoreSimulator.Failure) in
            try deliver(body, simulator)
        }
        return router.freeze(errors: HTTPServerError.apiShape)
    }

    /// Builds the notification and POSTs it to the gateway; answers what the gateway said.
    private static func deliver(_ notify: SimulatorControl.Notify, _ simulator: AppStoreSimulator)
        throws(AppStoreSimulator.Failure) -> [String: Any] {
        let uuid = notify.notificationUUID ?? UUID().uuidString.lowercased()
        let body = notify.version == 1
            ? try simulator.notificationV1(notify.receipt, type: notify.type, password: notify.password)
            : try simulator.notificationV2(notify.receipt, type: notify.type, subtype: notify.subtype,
                                           transactionId: notify.transactionId, notificationUUID: uuid)
        do {
            let answer = try NotificationPoster.post(body, to: notify.gateway)
            var result: [String: Any] = ["gatewayStatus": answer.status, "gatewayBody": String(decoding: answer.body, as: UTF8.self)]
            if notify.version == 2 { result["notificationUUID"] = uuid }
            return result
        } catch {
            throw .invalid("the gateway could not be reached: \(error)")
        }
    }

    /// `POST /simulator/<name>`: decode the body, apply, answer `{"status":"ok", …}` (or 400/404).
    /// Runs on a worker: delivering a notification waits on the gateway.
    private static func control<Body: Decodable & SendableMetatype>(_ router: RouterBuilder, _ name: String,
                                                 _ apply: @escaping @Sendable (Body) throws(AppStoreSimulator.Failure) -> [String: Any]) {
        router.add("POST", "/simulator/" + name, execution: .worker, maxBodyBytes: controlBodyBytes) { request in
            let body: Body
            do { body = try JSONDecoder().decode(Body.self, from: Data(request.body)) } catch {
                return .error(400, code: "bad_request", message: "\(error)")
            }
            do throws(AppStoreSimulator.Failure) {
                var answer = try apply(body)
                answer["status"] = "ok"
                return .json(200, Array(ReceiptRendering.json(answer)))
            } catch {
                let missing = switch error { case .unknownReceipt, .unknownTransaction: true; default: false }
                return .error(missing ? 404 : 400, code: missing ? "not_found" : "bad_request", message: error.description)
            }
        }
    }
}
