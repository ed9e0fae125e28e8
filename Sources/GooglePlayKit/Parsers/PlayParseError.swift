/// Why a body Google sent (or a push envelope someone sent) could not be read. The text names the
/// field; it never echoes a token or a key.
public enum PlayParseError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooLarge(bytes: Int, limit: Int)
    case notJSON(String)
    case missingField(String)
    case invalidField(String, expected: String)

    public var description: String {
        switch self {
        case .tooLarge(let bytes, let limit): "the body has \(bytes) bytes, more than the \(limit) read"
        case .notJSON(let why): "not a JSON object: \(why)"
        case .missingField(let name): "\(name) is missing"
        case .invalidField(let name, let expected): "\(name) must be \(expected)"
        }
    }
}
