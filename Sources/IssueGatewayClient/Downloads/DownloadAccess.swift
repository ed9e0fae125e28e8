import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the token route answers for one issue (tokens.md, What the token route answers): the
/// download token, one URL per asset in asset order and, for CDNs that check cookies, the
/// cookies to send with them. Good until ``expiresAt``; a CDN's 401, 403 or 410 means "get a new
/// one", which ``IssueGatewayClient/download(publication:issue:into:)`` does by itself.
public struct DownloadAccess: Sendable, Hashable, Decodable {
    /// The JWS download token (tokens.md), for edges that take it as a bearer.
    public var token: String
    /// When the URLs and cookies stop working.
    public var expiresAt: Date
    /// The CDN's format: `jws`, `nginx-secure-link`, `akamai-edgeauth`, `cloudfront`, …
    public var format: String
    /// One URL per asset, in the asset order.
    public var urls: [URL]
    /// Cookies the CDN checks (cookie delivery); empty when the URLs carry everything.
    public var cookies: [CDNCookie]

    enum CodingKeys: String, CodingKey { case token, expiresAt, format, urls, cookies }

    /// Decodes the answer; `format` defaults to `jws`, `cookies` to none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        token = try container.decode(String.self, forKey: .token)
        expiresAt = try container.decode(Date.self, forKey: .expiresAt)
        format = try container.decodeIfPresent(String.self, forKey: .format) ?? "jws"
        urls = try container.list([URL].self, forKey: .urls)
        cookies = try container.list([CDNCookie].self, forKey: .cookies)
    }

    /// The `GET` of one of ``urls``, with the `Cookie` field holding the cookies whose path
    /// covers it (RFC 6265 §5.4).
    public func request(for url: URL) -> HTTPRequest {
        let path = url.path.isEmpty ? "/" : url.path
        let matching = cookies.filter { cookie in
            path == cookie.path || path.hasPrefix(cookie.path.hasSuffix("/") ? cookie.path : cookie.path + "/")
        }
        let header = matching.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
        return HTTPRequest(method: "GET", url: url, headers: header.isEmpty ? [:] : ["Cookie": header])
    }
}

/// A cookie the CDN checks instead of a signed URL (CloudFront, Akamai).
public struct CDNCookie: Sendable, Hashable, Decodable {
    /// The name.
    public var name: String
    /// The value.
    public var value: String
    /// The CDN's host.
    public var domain: String
    /// The assets' common folder, ending in `/`.
    public var path: String

    /// The cookie for a `URLSession` or `WKWebView` cookie store: secure and HTTP-only, with no
    /// expiry (it is dead after ``DownloadAccess/expiresAt`` anyway).
    public var httpCookie: HTTPCookie? {
        HTTPCookie(properties: [.name: name, .value: value, .domain: domain, .path: path, .secure: "TRUE",
                                HTTPCookiePropertyKey("HttpOnly"): "TRUE"])
    }
}
