import Entitle
import Foundation

/// The three fields of a verifyReceipt answer the client reads itself; the rest of the body is
/// handed untouched to the Entitle parser.
struct VerifyReceiptResponse: Equatable, Decodable {
    /// A JSON integer, or a string of digits.
    var status: Int
    /// `is-retryable` or `is_retryable`: bool, number or string in the wild (appstore.md).
    var isRetryable: Bool
    var environment: AppStoreEnvironment?

    init?(body: Data) {
        guard let decoded = try? JSONDecoder().decode(Self.self, from: body) else { return nil }
        self = decoded
    }

    private enum Keys: String, CodingKey {
        case status, environment
        case isRetryableDash = "is-retryable"
        case isRetryableUnderscore = "is_retryable"
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Keys.self)
        if let number = try? fields.decode(Int.self, forKey: .status) {
            status = number
        } else if let text = try? fields.decode(String.self, forKey: .status), let number = Int(text) {
            status = number
        } else {
            throw DecodingError.dataCorruptedError(forKey: .status, in: fields, debugDescription: "no integer status")
        }
        isRetryable = Self.flag(fields, .isRetryableDash) || Self.flag(fields, .isRetryableUnderscore)
        environment = AppStoreEnvironmentName.environment(named: try? fields.decode(String.self, forKey: .environment))
    }

    private static func flag(_ fields: KeyedDecodingContainer<Keys>, _ key: Keys) -> Bool {
        if let value = try? fields.decode(Bool.self, forKey: key) { return value }
        if let value = try? fields.decode(Int.self, forKey: key) { return value != 0 }
        if let value = try? fields.decode(String.self, forKey: key) { return ["true", "1", "yes"].contains(value.lowercased()) }
        return false
    }
}
