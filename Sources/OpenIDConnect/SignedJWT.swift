import Wire

/// A JWT whose signature verified (RFC 7519 §7.2 steps 1–8; OpenID Connect Core §3.1.3.7 step 6):
/// its protected header and claims, nothing of them checked yet. The signature is checked over the
/// bytes as received before the claims are parsed, and `kid` is only a lookup among keys fetched
/// from the configured URL: a token never brings its key.
public struct SignedJWT: Sendable {
    public let header: JSONObject
    public let claims: JSONObject

    /// Why step 1 refused a token, or could not decide.
    public enum Failure: Error, Equatable, Sendable {
        case malformed(String)
        /// `alg` outside the allowed list (`none` and `HS*` never in it: RFC 8725 §3.1, §2.1).
        case algorithm(String)
        case unknownKey
        case signature
        case keysUnavailable(String)
    }

    /// An ID token is about 1 KiB; anything far larger is refused before decoding.
    public static let maximumTokenBytes = 16 * 1024
    /// Algorithms no configuration can allow: no signature at all, or a shared secret that the
    /// provider's public key would become (RFC 8725 §2.1).
    public static func isNeverAllowed(_ algorithm: String) -> Bool {
        algorithm.lowercased() == "none" || algorithm.uppercased().hasPrefix("HS")
    }
    /// The algorithms this target verifies.
    public static let supportedAlgorithms: Set<String> = ["RS256", "ES256"]

    public static func verify(_ token: String, algorithms: Set<String>, keys: KeptKeySet, now: Instant) throws(Failure) -> SignedJWT {
        let jws: CompactJWS
        do { jws = try CompactJWS(splitting: token, maximumBytes: maximumTokenBytes) } catch {
            throw .malformed("not a compact JWS")
        }
        guard let header = try? JSONParser(limits: JSONLimits(maxBytes: 4096, maxDepth: 4)).parse(bytes: jws.header).objectValue else {
            throw .malformed("the header is not a JSON object")
        }
        let alg = header["alg"]?.stringValue ?? "(none)"
        guard !isNeverAllowed(alg), algorithms.contains(alg), supportedAlgorithms.contains(alg) else { throw .algorithm(alg) }
        guard let kid = header["kid"]?.stringValue, !kid.isEmpty else { throw .unknownKey }
        let key: JSONWebKey
        do { key = try keys.key(kid, now: now) } catch {
            switch error {
            case .unknownKey: throw .unknownKey
            case .unavailable(let why): throw .keysUnavailable(why)
            }
        }
        guard key.verifies(alg, signature: jws.signature, message: jws.signingInput) else { throw .signature }
        guard let claims = try? JSONParser(limits: JSONLimits(maxBytes: maximumTokenBytes, maxDepth: 8))
            .parse(bytes: jws.payload).objectValue else { throw .malformed("the claims are not a JSON object") }
        return SignedJWT(header: header, claims: claims)
    }
}
