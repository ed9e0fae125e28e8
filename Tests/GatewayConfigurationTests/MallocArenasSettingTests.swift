@testable import GatewayConfiguration
import Testing

/// `ISSUE_GATEWAY_MALLOC_ARENAS` (decision 122): one arena per core by default, at least two;
/// 0 leaves glibc's own limit; nonsense is refused naming the setting.
@Suite struct MallocArenasSettingTests {
    @Test func defaultIsOnePerCoreAndAtLeastTwo() throws {
        let defaults = try Configuration.load(environment: [:])
        #expect(defaults.mallocArenas == max(2, Configuration.defaultThreads))
        #expect(try Configuration.load(environment: ["ISSUE_GATEWAY_MALLOC_ARENAS": "0"]).mallocArenas == 0)
        #expect(try Configuration.load(environment: ["ISSUE_GATEWAY_MALLOC_ARENAS": "6"]).mallocArenas == 6)
    }

    @Test(arguments: ["-1", "257", "two", ""])
    func nonsenseIsRefusedNamingTheSetting(_ value: String) {
        #expect {
            try Configuration.load(environment: ["ISSUE_GATEWAY_MALLOC_ARENAS": value])
        } throws: { error in
            (error as? ConfigurationError)?.setting == "ISSUE_GATEWAY_MALLOC_ARENAS"
        }
    }
}
