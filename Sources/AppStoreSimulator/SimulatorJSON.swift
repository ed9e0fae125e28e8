import Foundation
import Wire

/// The simulator's bodies as JSON with the shared writer. Foundation's `JSONSerialization` with
/// `.sortedKeys` sorts every object through ICU collation: a verifyReceipt answer of years of
/// renewals (~60 KB) took ~45 ms of CPU that way, which capped the accounts benchmark at about
/// 15 receipts/s. Keys are sorted by code points here, so a body stays byte-for-byte repeatable.
enum SimulatorJSON {
    /// Nil when `object` holds something JSON has no spelling for (the caller falls back).
    static func value(_ object: Any) -> JSONValue? {
        switch object {
        case let text as String: return .string(text)
        case let flag as Bool: return .bool(flag)
        case let number as Int: return .integer(Int64(number))
        case let number as Int64: return .integer(number)
        case let number as Int32: return .integer(Int64(number))
        case let number as Double: return number.isFinite ? .number(number) : nil
        case let fields as [String: String]: return members(fields.map { ($0.key, JSONValue.string($0.value)) })
        case let fields as [String: Any]:
            var converted: [(String, JSONValue)] = []
            converted.reserveCapacity(fields.count)
            for (name, field) in fields {
                guard let value = value(field) else { return nil }
                converted.append((name, value))
            }
            return members(converted)
        case let elements as [Any]:
            var converted: [JSONValue] = []
            converted.reserveCapacity(elements.count)
            for element in elements {
                guard let value = value(element) else { return nil }
                converted.append(value)
            }
            return .array(converted)
        default: return nil
        }
    }

    private static func members(_ fields: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(fields.sorted { $0.0 < $1.0 }.map { JSONMember($0.0, $0.1) }))
    }
}
