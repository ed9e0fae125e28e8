/// A cookie the reader app stores for the CDN host before fetching (tokens.md, What the token
/// route answers): always `Secure` and `HttpOnly`, and with no expiry attribute, since the
/// signature inside it dies at `expiresAt` anyway.
public struct EdgeCookie: Equatable, Sendable {
    public let name: String
    public let value: String
    public let domain: String
    /// The assets' longest common directory, percent-encoded, ending in `/`.
    public let path: String

    public init(name: String, value: String, domain: String, path: String) {
        self.name = name; self.value = value; self.domain = domain; self.path = path
    }

    /// As a `Set-Cookie` header value (RFC 6265 §4.1).
    public var setCookie: String { "\(name)=\(value); Domain=\(domain); Path=\(path); Secure; HttpOnly" }
}

/// What the token route hands out for one issue besides the JWS: one URL per asset, in asset
/// order, and the cookies to send with them (nil: the URLs carry everything).
public struct EdgeGrant: Equatable, Sendable {
    public let urls: [String]
    public let cookies: [EdgeCookie]?

    public init(urls: [String], cookies: [EdgeCookie]? = nil) {
        self.urls = urls
        self.cookies = cookies
    }
}
