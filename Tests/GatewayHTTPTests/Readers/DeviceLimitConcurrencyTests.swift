import Foundation
@testable import GatewayConfiguration
import Synchronization
import TestSupport
import Testing
import GatewayTesting

/// E34 across processes: sign-ins at once through two gateways on one PostgreSQL database never
/// take an account past its device limit.
@Suite struct DeviceLimitConcurrencyTests {
    @Test(.postgresCluster) func e34SignInsAtOnceOnTwoGatewaysNeverPassTheLimit() throws {
        let schema = try TemporaryPostgresSchema(ownRole: true)
        let gateways = [try GatewayHarness(store: try schema.open(), configure: { $0.deviceLimit = 2 }),
                        try GatewayHarness(store: try schema.open(), configure: { $0.deviceLimit = 2 })]
        let reader = try gateways[0].createAccount()  // its first session takes one place
        let codes = try (0..<8).map { _ in try gateways[0].linkCode(for: reader.id, as: reader.token) }
        let statuses = Mutex<[Int]>([])
        let group = DispatchGroup()
        for (index, code) in codes.enumerated() {
            group.enter()
            Thread {
                let status = (try? gateways[index % 2].linkSignIn(code: code, device: "device-\(index)").status) ?? 0
                statuses.withLock { $0.append(status) }
                group.leave()
            }.start()
        }
        group.wait()
        let answered = statuses.withLock { $0 }
        #expect(answered.filter { $0 == 201 }.count == 1, "\(answered)")
        #expect(answered.filter { $0 == 409 }.count == 7, "\(answered)")
        let live = try gateways[1].client.get("/v1/accounts/\(reader.id)/sessions", as: H.adminKey).objects("sessions")
        #expect(live.count == 2)
    }
}
