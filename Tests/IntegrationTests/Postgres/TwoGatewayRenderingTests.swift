import Foundation
@testable import GatewayConfiguration
import PostgresStore
import TestSupport
import Testing
import GatewayTesting

/// Two gateways on one PostgreSQL database, as two `serve` processes: the same account is
/// answered and drawn byte for byte alike by both (the timeline SVG included), whichever wrote
/// the facts and whichever has them cached.
@Suite(.tags(.integration, .postgres), .postgresCluster)
final class TwoGatewayRenderingTests {
    let gateways: TwoGateways
    var schema: TemporaryPostgresSchema { gateways.schema }
    var a: GatewayHarness { gateways.a }
    var b: GatewayHarness { gateways.b }

    init() throws { gateways = try TwoGateways() }

    @Test func bothGatewaysRenderTheSameAccountByteForByte() throws {
        let (account, _) = try RenderingScenario.seed(a, reversed: true)
        for path in RenderingScenario.renderedPaths {
            let target = "/v1/accounts/\(account)/\(path)"
            let fromA = try a.client.get(target, as: H.adminKey)
            #expect(fromA.status == 200, "\(path)")
            // B hears of the catalog and the facts through the change feed within a second.
            #expect(within(.seconds(2)) { try b.client.get(target, as: H.adminKey).body == fromA.body }, "\(path) differs on B")
        }
    }
}
