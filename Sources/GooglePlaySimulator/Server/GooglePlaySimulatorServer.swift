import Foundation
import HTTPServer
import Metrics
import Synchronization
import Wire

/// The simulator on HTTP, on the project's own server (one loop, two workers: a developer tool):
///
/// - `POST /token`: the service account's token endpoint (`token_uri` of `serviceAccountKey`).
/// - `/androidpublisher/v3/applications/{packageName}/…`: the Developer and Orders API calls of
///   googleplay.md (`ISSUE_GATEWAY_GOOGLE_API_URL` = `baseURL`).
/// - `GET /oauth2/v3/certs`: the JWKS of push tokens (`ISSUE_GATEWAY_GOOGLE_CERTS_URL` = `certsURL`).
/// - `/simulator/…`: the control routes (`+Control`): scenario steps pushed to `pushTarget`, the
///   clock, failures.
public final class GooglePlaySimulatorServer: Sendable {
    public let simulator: GooglePlaySimulator
    public let hostName: String
    private let server: HTTPServer
    private let boundPort = Mutex(0)
    /// The base URL once bound: assertions must name `<base>/token` as their audience.
    private let audienceBase = BoundBase()
    private let push = PushSettings()

    final class BoundBase: Sendable {
        let text = Mutex("")
    }

    static let prefix = "/androidpublisher/v3/applications/{packageName}/"
    /// Request bodies are a form or `{}`.
    static let bodyBytes = 64 * 1024

    public var port: Int { boundPort.withLock { $0 } }

    /// Where scenario steps push their notifications (nil: nowhere); a gateway started after the
    /// simulator is named here once its port is known.
    public var pushTarget: PushTarget? {
        get { push.target.withLock { $0 } }
        set { push.target.withLock { $0 = newValue } }
    }

    public init(simulator: GooglePlaySimulator, host: String = "127.0.0.1", port: Int = 0, pushTarget: PushTarget? = nil) {
        self.simulator = simulator
        self.hostName = host
        var configuration = HTTPServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.threads = 1
        configuration.workerPools = [.standard: WorkerPoolSize(threads: 2, queueLimit: 1024),
                                     Self.controlPool: WorkerPoolSize(threads: Self.controlThreads, queueLimit: 1024)]
        let router = RouterBuilder()
        let base = audienceBase
        Self.register(router, simulator, tokenAudience: { base.text.withLock { $0 } + "/token" })
        push.target.withLock { $0 = pushTarget }
        Self.registerControl(router, simulator, push)
        server = HTTPServer(configuration: configuration, router: router.freeze(), metrics: Metrics(), accessLog: nil)
    }

    @discardableResult
    public func start() throws -> Self {
        let port = try server.start()
        boundPort.withLock { $0 = port }
        audienceBase.text.withLock { $0 = baseURL.absoluteString }
        return self
    }

    /// For the command line: serves until SIGTERM or SIGINT.
    public func runUntilSignalled(onStart: (GooglePlaySimulatorServer) -> Void) throws {
        try server.runUntilSignalled { port in
            boundPort.withLock { $0 = port }
            audienceBase.text.withLock { $0 = baseURL.absoluteString }
            onStart(self)
        }
    }

    public func stop() {
        server.shutdown()
        server.waitUntilStopped()
    }

    public var baseURL: URL {
        let name = hostName.contains(":") ? "[\(hostName)]" : hostName
        return URL(string: "http://\(name):\(port)")!
    }
    public var tokenURL: URL { baseURL.appendingPathComponent("token") }
    public var certsURL: URL { baseURL.appendingPathComponent("oauth2/v3/certs") }

    @Sendable static func respond(_ answer: SimulatedAnswer) -> HTTPResponse {
        var headers = answer.body.isEmpty ? [] : [("Content-Type", "application/json; charset=UTF-8")]
        headers += answer.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return HTTPResponse(status: answer.status, headers: headers, body: answer.body)
    }

    private static func register(_ router: RouterBuilder, _ simulator: GooglePlaySimulator,
                                 tokenAudience: @escaping @Sendable () -> String) {
        func api(_ method: String, _ path: String, _ call: @escaping @Sendable (HTTPRequest) -> SimulatedCall?) {
            router.add(method, prefix + path, execution: .worker, maxBodyBytes: bodyBytes) { request in
                guard let parsed = call(request) else { return respond(.error(404, reason: "notFound", "No such method.")) }
                return respond(simulator.answer(parsed, packageName: request.pathParameters["packageName"] ?? "",
                                                authorization: request.header("Authorization")))
            }
        }
        router.add("POST", "/token", execution: .worker, maxBodyBytes: bodyBytes) { request in
            respond(simulator.tokenEndpoint(form: request.body, audience: tokenAudience()))
        }
        router.add("GET", "/oauth2/v3/certs", execution: .inline) { _ in
            HTTPResponse(status: 200, headers: [("Content-Type", "application/json; charset=UTF-8"),
                                                 ("Cache-Control", "public, max-age=\(GooglePlaySimulator.certsMaxAgeSeconds), must-revalidate")],
                         body: simulator.jwks())
        }
        api("GET", "purchases/subscriptionsv2/tokens/{token}") { .subscription(token: $0.pathParameters["token"] ?? "") }
        api("GET", "purchases/products/{productId}/tokens/{token}") {
            .product(productId: $0.pathParameters["productId"] ?? "", token: $0.pathParameters["token"] ?? "")
        }
        for (kind, subscription) in [("subscriptions", true), ("products", false)] {
            api("POST", "purchases/\(kind)/{productId}/tokens/{token}") { request in
                // `{token}:acknowledge` is one path segment.
                guard let segment = request.pathParameters["token"], segment.hasSuffix(":acknowledge") else { return nil }
                return .acknowledge(subscription: subscription, productId: request.pathParameters["productId"] ?? "",
                                    token: String(segment.dropLast(":acknowledge".count)))
            }
        }
        api("GET", "orders/{orderId}") { .order($0.pathParameters["orderId"] ?? "") }
        api("GET", "orders:batchGet") { request in .orders(request.queryParameters().filter { $0.0 == "orderIds" }.map(\.1)) }
        api("GET", "purchases/voidedpurchases") { request in
            guard request.queryParameter("type") == "1" else { return nil }
            return .voided(start: Int64(request.queryParameter("startTime") ?? "") ?? 0,
                           end: Int64(request.queryParameter("endTime") ?? "") ?? Int64.max)
        }
    }
}
