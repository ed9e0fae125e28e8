import Wire

/// Why a Stripe body could not be read. Each names the field by its full path.
public enum StripeParseError: Error, Equatable, Sendable, CustomStringConvertible {
    case notJSON(String)
    case tooLarge(bytes: Int, limit: Int)
    case missingField(String)
    case invalidField(String, expected: String)

    public var description: String {
        switch self {
        case .notJSON(let why): why
        case .tooLarge(let bytes, let limit): "the body has \(bytes) bytes, more than \(limit)"
        case .missingField(let name): "\(name) is missing"
        case .invalidField(let name, let expected): "\(name) must be \(expected)"
        }
    }
}

/// Bounds on what Stripe (or someone pretending to be Stripe) may make the parsers read.
public enum StripeParserLimits {
    /// An event or an API answer: a hundred invoice lines with their metadata fit comfortably.
    public static let maximumBodyBytes = 1 << 20
    /// Lines of one invoice, items of one subscription, objects of one list page.
    public static let maximumEntries = 1000
}

extension StripeParseError: JSONFieldFailure {}
