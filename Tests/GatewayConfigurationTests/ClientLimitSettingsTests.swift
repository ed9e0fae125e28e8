@testable import GatewayConfiguration
import Testing

/// The fairness limits are settings, with defaults and bounds.
@Suite struct ClientLimitSettingsTests {
    @Test func clientAndAccountCreationLimitsAreReadAndBounded() throws {
        let defaults = try Configuration.load(environment: [:])
        #expect(defaults.httpClientRequests == 512 && defaults.httpClientPoolSharePercent == 50)
        #expect(defaults.httpClientBufferSharePercent == 25)
        #expect(defaults.accountCreationPerMinute == 60 && defaults.accountCreationBurst == 30)
        let set = try Configuration.load(environment: [
            "ISSUE_GATEWAY_HTTP_CLIENT_REQUESTS": "64", "ISSUE_GATEWAY_HTTP_CLIENT_POOL_SHARE": "25",
            "ISSUE_GATEWAY_HTTP_CLIENT_BUFFER_SHARE": "10",
            "ISSUE_GATEWAY_ACCOUNT_CREATION_RATE": "1000000", "ISSUE_GATEWAY_ACCOUNT_CREATION_BURST": "100000",
        ])
        #expect(set.httpClientRequests == 64 && set.httpClientPoolSharePercent == 25 && set.httpClientBufferSharePercent == 10)
        #expect(set.accountCreationPerMinute == 1_000_000 && set.accountCreationBurst == 100_000)
        for (name, value) in [("ISSUE_GATEWAY_HTTP_CLIENT_POOL_SHARE", "0"), ("ISSUE_GATEWAY_HTTP_CLIENT_POOL_SHARE", "101"),
                              ("ISSUE_GATEWAY_HTTP_CLIENT_BUFFER_SHARE", "0"),
                              ("ISSUE_GATEWAY_ACCOUNT_CREATION_RATE", "0"), ("ISSUE_GATEWAY_HTTP_CLIENT_REQUESTS", "-1")] {
            #expect(throws: ConfigurationError.self, "\(name)=\(value)") { try Configuration.load(environment: [name: value]) }
        }
    }
}
