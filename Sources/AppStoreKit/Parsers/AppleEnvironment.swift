import Entitle

extension StoreEnvironment {
    /// Apple's spellings: `Production`/`Sandbox` in verifyReceipt answers and V2 payloads,
    /// `PROD` in V1 notifications (appstore.md). `Xcode` and `LocalTesting` (StoreKit testing)
    /// name no environment the gateway knows.
    public static let appleSpellings: [String: StoreEnvironment] = [
        "Production": .production, "PROD": .production, "Sandbox": .sandbox,
    ]

    public init?(appleName: String?) {
        guard let appleName, let environment = Self.appleSpellings[appleName] else { return nil }
        self = environment
    }
}
