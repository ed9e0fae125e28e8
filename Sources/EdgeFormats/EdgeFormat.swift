/// The download URL formats the token route can hand out (tokens.md, CDN-native formats,
/// `ISSUE_GATEWAY_EDGE_FORMAT`): the gateway's own JWS, or one a CDN checks by itself (Bunny and
/// Cloudflare are the spec's optional ones).
public enum EdgeFormat: String, Sendable, CaseIterable {
    case jws
    case nginxSecureLink = "nginx-secure-link"
    case akamaiEdgeAuth = "akamai-edgeauth"
    case cloudfront
    case bunny
    case cloudflareHMAC = "cloudflare-hmac"

    /// tokens.md, Configuration: `cookie` only for `akamai-edgeauth` and `cloudfront`.
    public var allowsCookies: Bool { self == .akamaiEdgeAuth || self == .cloudfront }
}

/// How the signed part reaches the CDN (`ISSUE_GATEWAY_EDGE_DELIVERY`).
public enum EdgeDelivery: String, Sendable, CaseIterable {
    case query
    case cookie
}
