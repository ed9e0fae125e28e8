@testable import GatewayConfiguration
@testable import GatewayCore
import Testing

/// `ISSUE_GATEWAY_CACHE_MEMORY`: bytes or a binary suffix, within bounds, errors naming it.
@Suite struct CacheMemorySettingTests {
    static func load(_ value: String) throws -> Int {
        try Configuration.load(environment: ["ISSUE_GATEWAY_CACHE_MEMORY": value]).cacheMemoryBytes
    }

    @Test func sizesAreReadWithTheirSuffix() throws {
        #expect(try Configuration.load(environment: [:]).cacheMemoryBytes == 256 << 20)
        #expect(try Self.load("256MiB") == 256 << 20)
        #expect(try Self.load("1GiB") == 1 << 30)
        #expect(try Self.load("2048KiB") == 2 << 20)
        #expect(try Self.load("1048576") == 1 << 20)
    }

    @Test(arguments: ["", "MiB", "1.5GiB", "-1MiB", "256MB", "256 MiB", "512KiB", "2048GiB", "99999999999999999999GiB"])
    func nonsenseIsRefusedNamingTheVariable(_ value: String) {
        #expect {
            try Self.load(value)
        } throws: { error in
            (error as? ConfigurationError)?.setting == "ISSUE_GATEWAY_CACHE_MEMORY"
        }
    }

    /// `ISSUE_GATEWAY_HTTP_BUFFER_MEMORY` reads the same way, and reaches the HTTP server.
    @Test func theHTTPBufferBudgetIsASizeToo() throws {
        #expect(try Configuration.load(environment: [:]).httpBufferBytes == 256 << 20)
        #expect(try Configuration.load(environment: ["ISSUE_GATEWAY_HTTP_BUFFER_MEMORY": "64MiB"]).httpBufferBytes == 64 << 20)
        #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: ["ISSUE_GATEWAY_HTTP_BUFFER_MEMORY": "1MiB"])  // below one largest body
        }
    }

    @Test func theBudgetIsSharedOutWithoutExceedingIt() {
        let budget = CacheBudget(totalBytes: 256 << 20)
        #expect(budget.answerBytes + budget.principalBytes + budget.factsBytes + budget.tokenBytes
                + budget.compressedBytes <= budget.totalBytes)
        #expect(budget.answerBytes > budget.factsBytes && budget.tokenBytes > 0)
    }
}
