import Foundation
import GatewayStore
import GatewayTesting
import IssueGatewayClient
import Synchronization
import TestSupport

/// What the integration suites run the client against: a real gateway on an ephemeral port with
/// the App Store simulator signing transactions (`AppStoreFlow`), real nginx running
/// `deploy/nginx/edge.conf` as its CDN, and a store that can be made busy on demand. The client
/// talks to both over sockets through `URLSessionTransport`, wrapped to record what crossed.
final class ClientWorld {
    let store: BusyOnDemand
    let flow: AppStoreFlow
    let edge: NginxEdge
    let transport: RecordingTransport
    let baseURL: URL

    init() throws {
        let cdnPort = try FreePort.loopback()
        var wrapped: BusyOnDemand?
        flow = try AppStoreFlow(wrapStore: { base in
            let busy = BusyOnDemand(base)
            wrapped = busy
            return busy
        }, configure: { $0.cdnBaseURL = "http://127.0.0.1:\(cdnPort)" })
        store = wrapped!
        edge = try NginxEdge(gatewayPort: flow.port, port: cdnPort)
        for issue in ["2026-01", "2026-02", "2026-03"] {
            try edge.place(Array("the \(issue) issue".utf8), at: "/content/monthly/\(issue)/issue.pdf")
        }
        transport = RecordingTransport()
        baseURL = URL(string: "http://127.0.0.1:\(flow.port)")!
    }

    deinit {
        edge.stop()
        flow.stop()
    }

    /// A new client of this gateway, with its own session store, on the recording transport.
    func client(pageSize: Int = 100, retries: RetryPolicy = .standard) -> IssueGatewayClient {
        IssueGatewayClient(baseURL: baseURL, transport: transport, retryPolicy: retries, pageSize: pageSize)
    }

    /// Every transaction of the production receipt (three monthly periods), signed by the
    /// simulator as StoreKit 2 hands them to an app.
    func signedTransactions() throws -> [String] {
        try flow.simulator.signedTransactions(FlowFixtures.production)
    }

    func downloads() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("client-world-\(UUID().uuidString)")
    }
}

/// Reads pass through; the next `failNext(_:)` writes fail as a busy database does (503
/// `storage_busy` with `Retry-After`).
final class BusyOnDemand: GatewayStore {
    private let base: any GatewayStore
    private let remaining = Mutex(0)
    private let failures = Mutex(0)

    init(_ base: any GatewayStore) { self.base = base }

    /// Makes the next `count` write units of work fail.
    func failNext(_ count: Int) { remaining.withLock { $0 = count } }

    /// Writes failed so far.
    var failed: Int { failures.withLock { $0 } }

    func read<R>(_ body: (any ReadTransaction) throws(StoreError) -> R) throws(StoreError) -> R {
        try base.read(body)
    }

    func write<R>(_ body: (any WriteTransaction) throws(StoreError) -> R) throws(StoreError) -> R {
        let fail = remaining.withLock { count in
            guard count > 0 else { return false }
            count -= 1
            return true
        }
        if fail {
            failures.withLock { $0 += 1 }
            throw .busy
        }
        return try base.write(body)
    }
}

/// `URLSessionTransport`, recording each exchange's request and status, with a hook run before
/// each CDN request (a test moves the gateway's clock there).
final class RecordingTransport: HTTPTransport {
    struct Exchange: Sendable { var request: HTTPRequest; var status: Int; var headers: [String: String] }

    private let inner = URLSessionTransport(timeout: 10)
    private let log = Mutex<[Exchange]>([])
    private let beforeDownload = Mutex<(@Sendable () -> Void)?>(nil)

    var exchanges: [Exchange] { log.withLock { $0 } }

    func onDownload(_ hook: (@Sendable () -> Void)?) { beforeDownload.withLock { $0 = hook } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response = try await inner.send(request)
        log.withLock { $0.append(Exchange(request: request, status: response.status, headers: response.headers)) }
        return response
    }

    func download(_ request: HTTPRequest, to destination: URL) async throws -> HTTPResponse {
        beforeDownload.withLock { $0 }?()
        let response = try await inner.download(request, to: destination)
        log.withLock { $0.append(Exchange(request: request, status: response.status, headers: response.headers)) }
        return response
    }
}

/// True the first time it is asked, false after.
final class OnceFlag: Sendable {
    private let asked = Mutex(false)

    func firstTime() -> Bool {
        asked.withLock { asked in
            defer { asked = true }
            return !asked
        }
    }
}
