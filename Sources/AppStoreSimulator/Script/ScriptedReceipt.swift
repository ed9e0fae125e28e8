import AppStoreKit
import Entitle
import Foundation

/// What the simulator answers for one receipt-data string: an account history in one App Store
/// environment, or a fixed status.
public struct ScriptedReceipt: Sendable, Hashable, Decodable {
    public var environment: StoreEnvironment
    /// When set, every request for this receipt is answered with this status alone (21010,
    /// 21005 for a persistent outage, 21100…); the history is not sent.
    public var status: Int?
    /// The next this-many requests are answered 21005 with `is-retryable: true`, then the history
    /// (Apple's intermittent "internal data access error").
    public var unavailableTimes: Int
    public var transactions: [ScriptedTransaction]
    public var renewals: [ScriptedRenewal]

    public init(environment: StoreEnvironment = .production, status: Int? = nil, unavailableTimes: Int = 0,
                transactions: [ScriptedTransaction] = [], renewals: [ScriptedRenewal] = []) {
        self.environment = environment
        self.status = status
        self.unavailableTimes = unavailableTimes
        self.transactions = transactions
        self.renewals = renewals
    }

    public init(from decoder: any Decoder) throws {
        let f = try ScriptFields(decoder, known: ["environment", "status", "unavailableTimes", "transactions", "renewals"])
        let name = try f.optional("environment", as: String.self) ?? "Production"
        guard let environment = StoreEnvironment(appleName: name) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "environment must be Production or Sandbox, not \(name)"))
        }
        let unavailable = try f.optional("unavailableTimes", as: Int.self) ?? 0
        guard unavailable >= 0 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unavailableTimes must be >= 0"))
        }
        self.init(environment: environment, status: try f.optional("status"), unavailableTimes: unavailable,
                  transactions: try f.optional("transactions") ?? [], renewals: try f.optional("renewals") ?? [])
    }
}

/// The simulator's script (docs/appstore-simulator.md): the app it plays and its receipts.
public struct SimulatorScript: Sendable, Decodable {
    /// `receipt.bundle_id` of every answer and `bundleId` of signed payloads.
    public var bundleId: String
    public var appAppleId: Int64
    /// When set, a verifyReceipt request whose `password` differs is answered 21004, as Apple does.
    public var sharedSecret: String?
    /// receipt-data string → its history.
    public var receipts: [String: ScriptedReceipt]

    public init(bundleId: String, appAppleId: Int64 = 1, sharedSecret: String? = nil, receipts: [String: ScriptedReceipt] = [:]) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.sharedSecret = sharedSecret
        self.receipts = receipts
    }

    public init(from decoder: any Decoder) throws {
        let f = try ScriptFields(decoder, known: ["bundleId", "appAppleId", "sharedSecret", "receipts"])
        self.init(bundleId: try f.required("bundleId"), appAppleId: try f.optional("appAppleId") ?? 1,
                  sharedSecret: try f.optional("sharedSecret"), receipts: try f.optional("receipts") ?? [:])
    }

    /// Reads a script file's bytes.
    public static func parse(_ data: Data) throws -> SimulatorScript {
        try JSONDecoder().decode(SimulatorScript.self, from: data)
    }
}
