import Foundation
import Wire

/// The App Store parsers' reads of one JSON object: Wire's reader with `AppStoreParseError`, so a
/// JSON `null` counts as absent and every error names the field's full path. The parsers take the
/// spellings appstore.md documents for each kind of value (verifyReceipt sends every value as a
/// string; V2 payloads send numbers and booleans): `integerOrDigits`, `boolOrSpelled`,
/// `milliseconds`.
typealias FieldReader = JSONFieldReader<AppStoreParseError>

extension AppStoreParseError: JSONFieldFailure {}

extension FieldReader {
    /// Parses a body that must be a JSON object, within the parsers' size limit.
    static func parse(_ body: Data, limit: Int = AppStoreParserLimits.maximumBodyBytes) throws(AppStoreParseError) -> FieldReader {
        try parse(body, limits: JSONLimits(maxBytes: limit, maxDepth: JSONLimits.standard.maxDepth))
    }

    func requiredInstant(_ key: String) throws(AppStoreParseError) -> Instant { try required(key, milliseconds) }

    /// An array of objects, at most `AppStoreParserLimits.maximumEntries`; `allowSingle` also
    /// takes one bare object (very old receipts).
    func entries(_ key: String, allowSingle: Bool = false) throws(AppStoreParseError) -> [FieldReader] {
        if allowSingle, let single = value(key)?.objectValue { return [FieldReader(single, path: name(key))] }
        if let count = value(key)?.arrayValue?.count, count > AppStoreParserLimits.maximumEntries {
            throw .tooMany(name(key), limit: AppStoreParserLimits.maximumEntries)
        }
        return try objects(key)
    }
}
