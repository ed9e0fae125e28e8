import Entitle

/// A body the App Store parsers refuse. Every case names the field (a path such as
/// `latest_receipt_info[3].purchase_date_ms`) so that logs say exactly what was wrong.
public enum AppStoreParseError: Error, Hashable, Sendable, CustomStringConvertible {
    case tooLarge(bytes: Int, limit: Int)
    case notJSON(String)
    case missingField(String)
    case invalidField(String, expected: String)
    case tooMany(String, limit: Int)

    public var description: String {
        switch self {
        case let .tooLarge(bytes, limit): return "body of \(bytes) bytes exceeds the limit of \(limit)"
        case let .notJSON(detail): return "body is not a JSON object: \(detail)"
        case let .missingField(path): return "missing field \(path)"
        case let .invalidField(path, expected): return "field \(path) is not \(expected)"
        case let .tooMany(path, limit): return "field \(path) holds more than \(limit) entries"
        }
    }
}

/// Bounds on what a parser accepts: every App Store body is hostile until parsed.
public struct AppStoreParserLimits: Sendable {
    /// A verifyReceipt answer carries the whole base64 receipt; Apple's are far below this.
    public static let maximumBodyBytes = 8 * 1024 * 1024
    /// Transactions plus renewal infos in one body (a 15-year monthly subscriber has 180).
    public static let maximumEntries = 20_000
}
