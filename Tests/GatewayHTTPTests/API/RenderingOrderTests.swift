import Entitle
import Foundation
import GatewayCore
import Testing
import Wire
@testable import GatewayConfiguration
import GatewayTesting

/// The answers, the history and the timeline picture are fixed by the facts (ties broken by
/// store, then id), never by the order the facts arrived in or by one process's hashing: two
/// gateways holding the same facts render an account byte for byte alike.
@Suite struct RenderingOrderTests {

    /// A gateway with the seeded catalog, three single-issue products and one reader holding a
    /// subscription and the three single issues (one refunded) stored in one batch, in either
    /// order, and two grants.
    private func gateway(reversed: Bool) throws -> (H, String, String) {
        let h = try H()
        let (account, token) = try RenderingScenario.seed(h, reversed: reversed)
        return (h, account, token)
    }

    /// The body with the account's own ids (random per gateway) and grant ids replaced.
    private func canonical(_ text: String, account: String, grants: [String]) -> String {
        var out = text.replacingOccurrences(of: account, with: "ACCOUNT")
        for (index, grant) in grants.enumerated() { out = out.replacingOccurrences(of: grant, with: "GRANT\(index)") }
        return out
    }

    private func grantIds(_ h: H, _ account: String) throws -> [String] {
        let body = try h.client.get("/v1/accounts/\(account)/entitlements", as: H.adminKey).json
        return ((body["grants"] as? [[String: Any]]) ?? [])
            .sorted { ($0["source"] as? String ?? "") < ($1["source"] as? String ?? "") }
            .compactMap { $0["grantId"] as? String }
    }

    @Test func twoGatewaysHoldingTheSameFactsRenderAnAccountByteForByte() throws {
        let (a, accountA, _) = try gateway(reversed: false)
        let (b, accountB, _) = try gateway(reversed: true)
        let grantsA = try grantIds(a, accountA), grantsB = try grantIds(b, accountB)
        try #require(grantsA.count == 2 && grantsB.count == 2)
        for path in RenderingScenario.renderedPaths where path != "history" {
            let fromA = try a.client.get("/v1/accounts/\(accountA)/\(path)", as: H.adminKey)
            let fromB = try b.client.get("/v1/accounts/\(accountB)/\(path)", as: H.adminKey)
            #expect(fromA.status == 200 && fromB.status == 200, "\(path)")
            #expect(canonical(fromA.text, account: accountA, grants: grantsA) == canonical(fromB.text, account: accountB, grants: grantsB),
                    "\(path) differs")
        }
        // Within the one batch of transactions, the history is ordered by the facts.
        let historyA = try a.client.get("/v1/accounts/\(accountA)/history", as: H.adminKey)
        let historyB = try b.client.get("/v1/accounts/\(accountB)/history", as: H.adminKey)
        #expect(historyA.status == 200)
        #expect(canonical(historyA.text, account: accountA, grants: grantsA) == canonical(historyB.text, account: accountB, grants: grantsB))
    }
}
