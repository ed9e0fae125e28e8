import Foundation
import OutboundHTTP

/// What signs the gateway's requests to the App Store Server API (appstore.md "App Store Server
/// API"; http-api.md `ISSUE_GATEWAY_APPSTORE_API_*`): the In-App Purchase key's id, the team's
/// issuer id, the app's bundle id (the token's `bid`) and the `.p8` private key.
public struct ServerAPICredentials: Sendable {
    public let keyId: String
    public let issuerId: String
    public let bundleId: String
    public let key: SigningKey

    /// A `.p8` file is a few hundred bytes; anything much larger is not one.
    public static let maximumKeyFileBytes = 16 * 1024

    public init(keyId: String, issuerId: String, bundleId: String, key: SigningKey) {
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
        self.key = key
    }

    /// Why the credentials could not be loaded at start, in words for the operator (the key's
    /// content is never part of it).
    public struct LoadError: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Reads and checks the `.p8` at `privateKeyPath`: a PKCS#8 PEM EC key on P-256 that can
    /// sign, so a wrong file stops the gateway at start instead of failing every call to Apple.
    public static func load(keyId: String, issuerId: String, bundleId: String,
                            privateKeyPath: String) throws(LoadError) -> ServerAPICredentials {
        let data: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: privateKeyPath)
            if let size = attributes[.size] as? Int, size > maximumKeyFileBytes {
                throw LoadError(description: "\(privateKeyPath) is larger than \(maximumKeyFileBytes) bytes: not a .p8 key")
            }
            data = try Data(contentsOf: URL(fileURLWithPath: privateKeyPath))
        } catch let error as LoadError {
            throw error
        } catch {
            throw LoadError(description: "\(privateKeyPath) cannot be read")
        }
        let key: SigningKey
        do { key = try SigningKey(pkcs8PEM: String(decoding: data, as: UTF8.self)) } catch {
            throw LoadError(description: "\(privateKeyPath) \(error)")
        }
        let credentials = ServerAPICredentials(keyId: keyId, issuerId: issuerId, bundleId: bundleId, key: key)
        guard ServerAPIToken.make(credentials, issuedAt: SystemTime.now()) != nil else {
            throw LoadError(description: "\(privateKeyPath) holds a key that cannot sign")
        }
        return credentials
    }
}
