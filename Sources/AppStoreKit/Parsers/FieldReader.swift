import Entitle
import Foundation
import IssueCatalog
import Wire

/// Typed reads of one JSON object's fields. A JSON `null` counts as absent. Errors carry the
/// field's full path. Readers accept the spellings appstore.md documents for each kind of value
/// (verifyReceipt sends every value as a string; V2 payloads send numbers and booleans).
struct FieldReader {
    let fields: JSONObject
    let path: String

    /// Parses a body that must be a JSON object (the strict parser: RFC 8259, no duplicate
    /// names), within the parsers' size limit.
    static func parse(_ body: Data, limit: Int = AppStoreParserLimits.maximumBodyBytes) throws -> FieldReader {
        guard body.count <= limit else { throw AppStoreParseError.tooLarge(bytes: body.count, limit: limit) }
        let value: JSONValue
        do {
            value = try JSONParser(limits: JSONLimits(maxBytes: limit, maxDepth: JSONLimits.standard.maxDepth))
                .parse(bytes: [UInt8](body))
        } catch {
            throw AppStoreParseError.notJSON("malformed JSON: \(error)")
        }
        guard case let .object(fields) = value else { throw AppStoreParseError.notJSON("top level is not an object") }
        return FieldReader(fields: fields, path: "")
    }

    func name(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    private func value(_ key: String) -> JSONValue? {
        guard let v = fields[key], v != .null else { return nil }
        return v
    }

    func has(_ key: String) -> Bool { value(key) != nil }

    func string(_ key: String) throws -> String? {
        guard let v = value(key) else { return nil }
        guard case let .string(s) = v else { throw AppStoreParseError.invalidField(name(key), expected: "a string") }
        return s
    }

    func requiredString(_ key: String) throws -> String {
        guard let s = try string(key) else { throw AppStoreParseError.missingField(name(key)) }
        guard !s.isEmpty else { throw AppStoreParseError.invalidField(name(key), expected: "a non-empty string") }
        return s
    }

    /// An integer: a JSON integer, or a string of ASCII digits with an optional leading minus.
    func int(_ key: String) throws -> Int64? {
        guard let v = value(key) else { return nil }
        switch v {
        case let .integer(i): return i
        case let .string(s):
            if let i = Self.strictInteger(s) { return i }
        default: break
        }
        throw AppStoreParseError.invalidField(name(key), expected: "an integer")
    }

    /// Milliseconds since the epoch: an integer (string or number) or, in V2 payloads, a number
    /// with a fraction, truncated to the millisecond.
    func instant(_ key: String) throws -> Instant? {
        if case let .number(d)? = value(key) {
            guard d.isFinite, abs(d) < 9.0e15 else {
                throw AppStoreParseError.invalidField(name(key), expected: "milliseconds since the epoch")
            }
            return Instant(millisecondsSinceEpoch: Int64(d.rounded(.down)))
        }
        return try int(key).map(Instant.init(millisecondsSinceEpoch:))
    }

    func requiredInstant(_ key: String) throws -> Instant {
        guard let t = try instant(key) else { throw AppStoreParseError.missingField(name(key)) }
        return t
    }

    /// A boolean as JSON `true`/`false`, `"true"`/`"false"`, `"1"`/`"0"` or the numbers 1/0.
    func bool(_ key: String) throws -> Bool? {
        guard let v = value(key) else { return nil }
        switch v {
        case let .bool(b): return b
        case .integer(1), .string("1"), .string("true"): return true
        case .integer(0), .string("0"), .string("false"): return false
        default: throw AppStoreParseError.invalidField(name(key), expected: "a boolean")
        }
    }

    func object(_ key: String) throws -> FieldReader? {
        guard let v = value(key) else { return nil }
        guard case let .object(o) = v else { throw AppStoreParseError.invalidField(name(key), expected: "an object") }
        return FieldReader(fields: o, path: name(key))
    }

    /// An array of objects; `allowSingle` also takes one bare object (very old receipts).
    func objects(_ key: String, allowSingle: Bool = false) throws -> [FieldReader] {
        guard let v = value(key) else { return [] }
        switch v {
        case let .object(o) where allowSingle:
            return [FieldReader(fields: o, path: name(key))]
        case let .array(items):
            guard items.count <= AppStoreParserLimits.maximumEntries else {
                throw AppStoreParseError.tooMany(name(key), limit: AppStoreParserLimits.maximumEntries)
            }
            return try items.enumerated().map { i, item in
                guard case let .object(o) = item else {
                    throw AppStoreParseError.invalidField("\(name(key))[\(i)]", expected: "an object")
                }
                return FieldReader(fields: o, path: "\(name(key))[\(i)]")
            }
        default:
            throw AppStoreParseError.invalidField(name(key), expected: "an array of objects")
        }
    }

    /// A value from a closed set, by its spelling.
    func oneOf<T>(_ key: String, _ spellings: [String: T]) throws -> T? {
        guard let s = try string(key) else { return nil }
        guard let v = spellings[s] else {
            throw AppStoreParseError.invalidField(name(key), expected: spellings.keys.sorted().joined(separator: " or "))
        }
        return v
    }

    private static func strictInteger(_ s: String) -> Int64? {
        let digits = s.hasPrefix("-") ? s.dropFirst() : Substring(s)
        guard !digits.isEmpty, digits.count <= 18, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int64(s)
    }
}
