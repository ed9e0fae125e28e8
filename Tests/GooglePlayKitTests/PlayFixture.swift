import Foundation
import GooglePlayKit
import GooglePlaySimulator
import OutboundHTTP
import Synchronization
import Testing
import Wire

/// A Google Play simulator on a real socket and a client that calls it with the simulator's
/// service account, on the simulator's clock; pauses between retries are recorded, not slept.
final class PlayFixture: Sendable {
    static let start = Instant(rfc3339: "2026-01-01T00:00:00Z")!
    let simulator: GooglePlaySimulator
    let server: GooglePlaySimulatorServer
    let client: GooglePlayClient
    let pauses = PauseLog()

    final class PauseLog: Sendable {
        let values = Mutex<[TimeInterval]>([])
    }

    init(configuration: GooglePlayConfiguration? = nil, key: ServiceAccountKey? = nil) throws {
        simulator = try #require(GooglePlaySimulator(now: Self.start))
        server = try GooglePlaySimulatorServer(simulator: simulator).start()
        var settings = configuration ?? GooglePlayConfiguration()
        settings.apiBaseURL = server.baseURL
        let simulator = simulator, pauses = pauses
        client = GooglePlayClient(configuration: settings, key: key ?? simulator.serviceAccountKeyFile(tokenURL: server.tokenURL),
                                  clock: { simulator.now }, pause: { seconds in pauses.values.withLock { $0.append(seconds) } })
    }

    var packageName: String { simulator.packageName }

    deinit { server.stop() }

    /// Everything Google answers for `token` and the tokens it replaced, newest first (E25).
    func chain(_ token: String) throws -> [PlayPurchaseSnapshot] {
        var chain: [PlayPurchaseSnapshot] = []
        var next: String? = token
        while let current = next {
            let purchase = try client.subscription(packageName: packageName, token: current)
            let ids = purchase.line?.latestSuccessfulOrderId.flatMap(PlayOrder.idsThrough) ?? []
            let orders = try client.orders(packageName: packageName, orderIds: ids)
            chain.append(PlayPurchaseSnapshot(token: current, purchase: purchase, orders: orders))
            next = purchase.linkedPurchaseToken
        }
        return chain
    }
}
