import Foundation
import HTTPServer
import Metrics
import StripeKit
import Synchronization
import Wire

/// The simulator's account on HTTP, on the project's own server: the API reads the gateway makes
/// (stripe.md, Calling Stripe), answered in the shape the request's `Stripe-Version` asks for,
/// only with the configured key, lists paged by `limit` and `starting_after`. `failNext` makes the
/// next answers 503 or 429, for the client's retries.
public final class StripeSimulatorServer: Sendable {
    public let simulator: StripeSimulator
    public let apiKey: String
    private let server: HTTPServer
    private let control: Control

    /// Answers to fail and requests served, shared with the routes.
    private final class Control: Sendable {
        /// Each with the `Retry-After` it carries (429s carry `0` unless told otherwise).
        let injected = Mutex<[(status: Int, retryAfter: String?)]>([])
        let served = Mutex(0)
    }

    public init(simulator: StripeSimulator, apiKey: String, host: String = "127.0.0.1", port: Int = 0) {
        self.simulator = simulator; self.apiKey = apiKey
        var configuration = HTTPServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.threads = 1
        let router = RouterBuilder()
        let control = Control()
        self.control = control
        for (path, answer) in Self.routes() {
            router.add("GET", path) { request in Self.respond(request, answer, simulator: simulator, apiKey: apiKey, control: control) }
        }
        server = HTTPServer(configuration: configuration, router: router.freeze(), metrics: Metrics(), accessLog: nil)
    }

    /// Binds an ephemeral port; returns the base URL (`ISSUE_GATEWAY_STRIPE_API_URL`).
    public func start() throws -> URL {
        let port = try server.start()
        return URL(string: "http://127.0.0.1:\(port)")!
    }

    /// For the command line: serves until SIGTERM or SIGINT; `onStart` gets the base URL.
    public func runUntilSignalled(onStart: (URL) -> Void) throws {
        try server.runUntilSignalled { port in onStart(URL(string: "http://\(server.configuration.host):\(port)")!) }
    }

    public func stop() {
        server.shutdown()
        server.waitUntilStopped()
    }

    /// The next answers have these statuses instead (503, 429), one each.
    public func failNext(_ statuses: [Int], retryAfter: String? = nil) {
        control.injected.withLock { $0 += statuses.map { ($0, retryAfter ?? ($0 == 429 ? "0" : nil)) } }
    }

    /// Requests answered so far (failed ones included).
    public var requests: Int { control.served.withLock { $0 } }

    private typealias Answer = @Sendable (_ request: HTTPRequest, _ s: StripeSimulatorState, _ r: StripeRendering) -> Rendered
    private enum Rendered { case object(JSONValue), list([JSONValue]), missing }

    private static func respond(_ request: HTTPRequest, _ answer: Answer, simulator: StripeSimulator, apiKey: String,
                                control: Control) -> HTTPResponse {
        control.served.withLock { $0 += 1 }
        if let injected = control.injected.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            return Self.error(injected.status, "simulated failure", retryAfter: injected.retryAfter)
        }
        guard request.header("Authorization") == "Bearer \(apiKey)" else { return Self.error(401, "Invalid API Key provided") }
        let shape = StripeShape(version: request.header("Stripe-Version"))
        let rendered = simulator.state.withLock { s in answer(request, s, simulator.render(s, shape: shape)) }
        switch rendered {
        case .missing: return Self.error(404, "No such object")
        case .object(let value): return Self.json(value)
        case .list(let items): return Self.json(Self.page(items, request.queryParameters()))
        }
    }

    /// `limit` objects after `starting_after`, with `has_more`.
    private static func page(_ items: [JSONValue], _ query: [(String, String)]) -> JSONValue {
        let limit = query.first { $0.0 == "limit" }.flatMap { Int($0.1) } ?? 10
        var start = 0
        if let after = query.first(where: { $0.0 == "starting_after" })?.1,
           let index = items.firstIndex(where: { $0.objectValue?["id"]?.stringValue == after }) { start = index + 1 }
        let slice = Array(items.dropFirst(start).prefix(max(1, limit)))
        return StripeRendering.list(slice, hasMore: start + slice.count < items.count, url: "")
    }

    private static func id(_ request: HTTPRequest) -> String { request.pathParameters["id"] ?? "" }
    private static func value(_ request: HTTPRequest, _ name: String) -> String? {
        request.queryParameters().first { $0.0 == name }?.1
    }

    private static func routes() -> [(String, Answer)] {
        [
            ("/v1/subscriptions/{id}", { q, s, r in s.subscriptions[id(q)].map { .object(r.subscription($0)) } ?? .missing }),
            ("/v1/invoices/{id}", { q, s, r in s.invoices[id(q)].map { .object(r.invoice($0)) } ?? .missing }),
            ("/v1/invoices/{id}/lines", { q, s, r in s.invoices[id(q)].map { .list($0.lines.map(r.line)) } ?? .missing }),
            ("/v1/invoices", { q, s, r in
                .list(s.invoiceOrder.compactMap { s.invoices[$0] }
                    .filter { $0.subscription == value(q, "subscription") && (value(q, "status") ?? $0.status) == $0.status }
                    .map(r.invoice))
            }),
            ("/v1/charges/{id}", { q, s, r in s.charges[id(q)].map { .object(r.charge($0)) } ?? .missing }),
            ("/v1/invoice_payments", { q, s, r in
                .list(s.charges.values.filter { $0.paymentIntent == value(q, "payment[payment_intent]") }.map(r.invoicePayment))
            }),
            ("/v1/customers/{id}", { q, s, r in s.customers[id(q)].map { .object(r.customer(id(q), metadata: $0)) } ?? .missing }),
            ("/v1/events", { q, s, _ in
                let from = value(q, "created[gte]").flatMap(Int64.init) ?? 0, before = value(q, "created[lt]").flatMap(Int64.init) ?? .max
                // Newest first, as Stripe lists them; each rendered at its own version.
                return .list(s.events.reversed().filter { $0.created.secondsSinceEpoch >= from && $0.created.secondsSinceEpoch < before }
                    .compactMap { try? JSONParser().parse(bytes: $0.body) })
            }),
        ]
    }

    private static func json(_ value: JSONValue) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: value.serializedBytes)
    }

    private static func error(_ status: Int, _ message: String, retryAfter: String? = nil) -> HTTPResponse {
        let body = StripeRendering.object([("error", StripeRendering.object([
            ("type", .string(status == 401 ? "authentication_error" : "api_error")), ("message", .string(message))]))])
        var headers = [("Content-Type", "application/json")]
        if let retryAfter { headers.append(("Retry-After", retryAfter)) }
        return HTTPResponse(status: status, headers: headers, body: body.serializedBytes)
    }
}
