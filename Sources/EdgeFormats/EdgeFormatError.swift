/// Why the CDN format's settings cannot start the gateway (tokens.md, Configuration: "The
/// gateway refuses to start when …"). Secrets and keys are never echoed.
public enum EdgeFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A setting the format needs is unset.
    case missing(String)
    case invalidSecrets(String)
    case invalidKey(String)
    case invalidKeyId
    case cookiesNotSupported(EdgeFormat)
    case invalidOrigin
    case invalidCookieDomain

    public var description: String {
        switch self {
        case .missing(let setting): return "\(setting) must be set for this ISSUE_GATEWAY_EDGE_FORMAT"
        case .invalidSecrets(let why): return "ISSUE_GATEWAY_EDGE_SECRETS: \(why)"
        case .invalidKey(let why): return "ISSUE_GATEWAY_EDGE_PRIVATE_KEY \(why)"
        case .invalidKeyId: return "ISSUE_GATEWAY_EDGE_KEY_ID must be 1 to 64 of A-Z a-z 0-9 _ -"
        case .cookiesNotSupported(let format):
            return "ISSUE_GATEWAY_EDGE_DELIVERY=cookie is not possible with ISSUE_GATEWAY_EDGE_FORMAT=\(format.rawValue)"
        case .invalidOrigin:
            return "ISSUE_GATEWAY_CDN_BASE_URL must be an origin (scheme, host, optional port) with no path"
        case .invalidCookieDomain: return "ISSUE_GATEWAY_EDGE_COOKIE_DOMAIN must be a host name"
        }
    }
}
