import Foundation
import GatewayCrypto
import Wire

/// A JWKS (RFC 7517 §5): signing keys by `kid`. RSA keys of 2048 bits or more (RFC 7518 §6.3.1)
/// and EC P-256 keys (§6.2.1) are kept; a key of another type, curve, algorithm or use, or without
/// a `kid`, is left out, never trusted.
public struct JSONWebKeySet: Sendable {
    public let keys: [String: JSONWebKey]

    public init(keys: [String: JSONWebKey]) { self.keys = keys }

    /// Google's and Apple's sets are a few KiB.
    public static let maximumBytes = 256 * 1024

    public struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
    }

    public static func parse(_ body: some Collection<UInt8>) throws(Invalid) -> JSONWebKeySet {
        guard body.count <= maximumBytes else { throw Invalid(description: "the key set is larger than \(maximumBytes) bytes") }
        let value: JSONValue
        do { value = try JSONParser(limits: JSONLimits(maxBytes: maximumBytes, maxDepth: 8)).parse(bytes: Array(body)) } catch {
            throw Invalid(description: "the key set is not JSON: \(error)")
        }
        guard let object = value.objectValue else { throw Invalid(description: "the key set is not a JSON object") }
        let set = JSONWebKeySet.reader(object)
        var keys: [String: JSONWebKey] = [:]
        for member in try set.objects("keys") {
            // A member of an unexpected type makes that key unusable, not the whole set.
            if let (kid, key) = try? Self.key(member) { keys[kid] = key }
        }
        return JSONWebKeySet(keys: keys)
    }

    static func reader(_ object: JSONObject) -> JSONFieldReader<Invalid> {
        JSONFieldReader(object) { path, expected in Invalid(description: "\(path) is not \(expected)") }
    }

    private static func key(_ member: JSONFieldReader<Invalid>) throws(Invalid) -> (String, JSONWebKey)? {
        guard let kid = try member.string("kid"), !kid.isEmpty, (try member.string("use")).map({ $0 == "sig" }) ?? true else { return nil }
        let alg = try member.string("alg")
        switch try member.string("kty") {
        case "RSA":
            guard alg.map({ $0 == "RS256" }) ?? true,
                  let n = try member.string("n").flatMap(Base64URL.decode), let e = try member.string("e").flatMap(Base64URL.decode),
                  let key = RSAPublicKey(modulus: n, exponent: e) else { return nil }
            return (kid, .rsa(key))
        case "EC":
            guard alg.map({ $0 == "ES256" }) ?? true, try member.string("crv") == "P-256",
                  let x = try member.string("x").flatMap(Base64URL.decode), let y = try member.string("y").flatMap(Base64URL.decode),
                  let key = P256PublicKey(x: x, y: y) else { return nil }
            return (kid, .p256(key))
        default:
            return nil
        }
    }
}
