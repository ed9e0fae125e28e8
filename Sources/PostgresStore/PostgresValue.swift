import GatewayStore
import Wire

/// A value bound to a statement parameter, sent in libpq's text format; the server infers each
/// parameter's type from where it is used. Only the types the schema uses.
enum PGValue: Sendable {
    case integer(Int64)
    case text(String)
    case boolean(Bool)
    case null

    static func optional(_ value: String?) -> PGValue { value.map(PGValue.text) ?? .null }
    static func optional(_ value: Int64?) -> PGValue { value.map(PGValue.integer) ?? .null }
    static func optional(_ value: Int?) -> PGValue { value.map { .integer(Int64($0)) } ?? .null }
    static func instant(_ value: Instant) -> PGValue { .integer(value.millisecondsSinceEpoch) }
    static func optional(_ value: Instant?) -> PGValue { optional(value?.millisecondsSinceEpoch) }

    /// The text format of the value (PostgreSQL's input syntax for its type), nil for NULL.
    var text: String? {
        switch self {
        case .integer(let v): return String(v)
        case .text(let s): return s
        case .boolean(let b): return b ? "true" : "false"
        case .null: return nil
        }
    }
}
