import Entitle

/// The spellings Apple uses for its environments: `Production`/`Sandbox` in verifyReceipt answers
/// and V2 payloads, `PROD`/`Sandbox` in V1 notifications (appstore.md). `Xcode` and `LocalTesting`
/// (StoreKit testing) name no environment the gateway knows, so they map to nil and are refused.
enum AppStoreEnvironmentName {
    static func environment(named name: String?) -> AppStoreEnvironment? {
        switch name {
        case "Production", "PROD": .production
        case "Sandbox": .sandbox
        default: nil
        }
    }
}
