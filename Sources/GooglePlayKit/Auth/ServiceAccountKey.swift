import Foundation
import GatewayCrypto
import Wire

/// A service account's JSON key (googleplay.md "Calling Google"): who the gateway is to Google
/// (`client_email`), the RSA key it signs its assertions with, and where it trades them for access
/// tokens (`token_uri`).
public struct ServiceAccountKey: Sendable {
    public var clientEmail: String
    public var privateKey: RSAPrivateKey
    public var tokenURI: URL

    public enum LoadError: Error, Equatable, Sendable, CustomStringConvertible {
        case unreadable(String)
        case malformed(String)

        public var description: String {
            switch self {
            case .unreadable(let why): "cannot be read: \(why)"
            case .malformed(let why): "is not a service account key: \(why)"
            }
        }
    }

    public init(clientEmail: String, privateKey: RSAPrivateKey, tokenURI: URL) {
        self.clientEmail = clientEmail; self.privateKey = privateKey; self.tokenURI = tokenURI
    }

    /// A key file is a few KiB.
    static let maximumFileBytes = 64 * 1024

    public static func load(path: String) throws(LoadError) -> ServiceAccountKey {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch { throw .unreadable(error.localizedDescription) }
        return try parse(data)
    }

    public static func parse(_ data: Data) throws(LoadError) -> ServiceAccountKey {
        let fields: PlayFields
        let email: String, pem: String, uri: String
        do {
            fields = try PlayFields.parse(data, limit: maximumFileBytes)
            email = try fields.requiredString("client_email")
            pem = try fields.requiredString("private_key")
            uri = try fields.requiredString("token_uri")
        } catch {
            throw .malformed(error.description)
        }
        guard let tokenURI = URL(string: uri), tokenURI.scheme == "https" || tokenURI.scheme == "http" else {
            throw .malformed("token_uri is not an http(s) URL")
        }
        do { return ServiceAccountKey(clientEmail: email, privateKey: try RSAPrivateKey(pem: pem), tokenURI: tokenURI) } catch {
            throw .malformed("private_key \(error.description)")
        }
    }

    /// The key file's JSON (a simulator hands it to a gateway).
    public func json() -> String? {
        guard let pem = privateKey.pkcs8PEM else { return nil }
        var w = JSONWriter()
        w.object { w in
            w.field("type", "service_account")
            w.field("client_email", clientEmail)
            w.field("private_key", pem)
            w.field("token_uri", tokenURI.absoluteString)
        }
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
