import Foundation
import Wire

/// `ISSUE_GATEWAY_IDENTITY_PROVIDERS`' file (readers.md, Configuration): `[{"id", "issuer" (or
/// "issuers"), "jwksUrl", "clientIds", "algorithms"}]`. Pure: the caller reads the file. Any
/// doubt refuses the whole file, so the gateway does not start with a provider half configured.
public enum IdentityProvidersFile {
    public struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
    }

    public static let maximumBytes = 1 << 20

    public static func decode(_ bytes: [UInt8]) throws(Invalid) -> [IdentityProvider] {
        guard bytes.count <= maximumBytes else { throw Invalid(description: "is larger than \(maximumBytes) bytes") }
        let value: JSONValue
        do { value = try JSONParser(limits: JSONLimits(maxBytes: maximumBytes, maxDepth: 8)).parse(bytes: bytes) } catch {
            throw Invalid(description: "is not JSON: \(error)")
        }
        guard let entries = value.arrayValue else { throw Invalid(description: "is not a JSON array of providers") }
        var providers: [IdentityProvider] = []
        for (index, entry) in entries.enumerated() {
            guard let object = entry.objectValue else { throw Invalid(description: "[\(index)] is not an object") }
            let provider = try self.provider(JSONFieldReader(object, path: "[\(index)]") { path, expected in
                Invalid(description: "\(path) is not \(expected)")
            })
            guard !providers.contains(where: { $0.id == provider.id }) else {
                throw Invalid(description: "[\(index)].id \(provider.id) names a provider twice")
            }
            providers.append(provider)
        }
        return providers
    }

    private static let known: Set<String> = ["id", "issuer", "issuers", "jwksUrl", "clientIds", "algorithms"]

    private static func provider(_ r: JSONFieldReader<Invalid>) throws(Invalid) -> IdentityProvider {
        func fail(_ name: String, _ why: String) -> Invalid { Invalid(description: "\(r.name(name)) \(why)") }
        if let unknown = r.object.names.first(where: { !known.contains($0) }) { throw fail(unknown, "is not a known member") }
        guard let id = try r.string("id"), !id.isEmpty, id.utf8.count <= 64 else { throw fail("id", "must be 1–64 characters") }
        let published = IdentityProvider.published[id]
        var issuers = Set(try r.elements("issuers") { $0.stringValue })
        if let issuer = try r.string("issuer") { issuers.insert(issuer) }
        if issuers.contains("") { throw fail("issuers", "must not be empty strings") }
        if issuers.isEmpty { issuers = published?.issuers ?? [] }
        guard !issuers.isEmpty else { throw fail("issuer", "is required for a provider other than apple and google") }
        let jwksURL: URL
        if let text = try r.string("jwksUrl") {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
                  url.host?.isEmpty == false else { throw fail("jwksUrl", "is not an http(s) URL") }
            jwksURL = url
        } else if let published {
            jwksURL = published.jwksURL
        } else {
            throw fail("jwksUrl", "is required for a provider other than apple and google")
        }
        let clientIds = Set(try r.elements("clientIds") { $0.stringValue })
        guard !clientIds.isEmpty, !clientIds.contains("") else { throw fail("clientIds", "must name at least one client id") }
        var algorithms = Set(try r.elements("algorithms") { $0.stringValue })
        if !r.has("algorithms") { algorithms = IdentityProvider.defaultAlgorithms }
        guard !algorithms.isEmpty else { throw fail("algorithms", "must name at least one algorithm") }
        if let refused = algorithms.sorted().first(where: { SignedJWT.isNeverAllowed($0) || !SignedJWT.supportedAlgorithms.contains($0) }) {
            throw fail("algorithms", "names \(refused); only RS256 and ES256 are taken")
        }
        return IdentityProvider(id: id, issuers: issuers, jwksURL: jwksURL, clientIds: clientIds, algorithms: algorithms)
    }
}
