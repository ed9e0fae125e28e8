import Entitle
import GatewayStore
import HTTPServer
import Synchronization

/// Resolves `Authorization: Bearer <secret>` to a principal. Secrets are known only by their
/// SHA-256 (http-api.md, Auth); the admin key's hash is compared in constant time, the others are
/// found by hash and confirmed in constant time. Resolved secrets are cached, and the cache is
/// emptied whenever a key is revoked, so a revoked key stops working at once. A lookup that raced
/// with a revocation is answered but not cached (the generation moved), so a request in flight
/// during `DELETE /v1/keys/{id}` cannot put the revoked key back into the cache.
final class Authenticator: Sendable {
    private struct Cache {
        var principals: [String: Principal] = [:]
        var generation: UInt64 = 0
    }

    private let store: any GatewayStore
    private let adminKeyHash: String
    private let cache = Mutex(Cache())
    private let cacheLimit: Int

    init(store: any GatewayStore, adminKey: String, cacheLimit: Int) throws(CryptoError) {
        self.store = store
        self.adminKeyHash = try SecretHash.hex(of: adminKey)
        self.cacheLimit = cacheLimit
    }

    /// nil when no bearer secret is sent.
    static func bearerSecret(_ request: HTTPRequest) -> String? {
        (try? EdgeCheck.bearerToken(request.header("Authorization"))) ?? nil
    }

    /// 401 when the secret is missing or unknown.
    func principal(_ request: HTTPRequest) throws(APIError) -> Principal {
        guard let secret = Self.bearerSecret(request) else { throw .unauthorized() }
        guard let found = try resolve(secret) else { throw .unauthorized("unknown secret") }
        return found
    }

    /// nil when no secret is sent; 401 when one is sent but unknown.
    func optionalPrincipal(_ request: HTTPRequest) throws(APIError) -> Principal? {
        guard Self.bearerSecret(request) != nil else { return nil }
        return try principal(request)
    }

    func forgetAll() {
        cache.withLock { cache in
            cache.principals.removeAll()
            cache.generation &+= 1
        }
    }

    private func resolve(_ secret: String) throws(APIError) -> Principal? {
        if SecretHash.matches(secret: secret, storedHex: adminKeyHash) { return .admin }
        let hash: String
        do { hash = try SecretHash.hex(of: secret) } catch { throw .internalError("hashing failed") }
        let (cached, generation) = cache.withLock { ($0.principals[hash], $0.generation) }
        if let cached { return cached }
        let found: Principal?
        do {
            if let key = try store.apiKey(secretHash: hash), SecretHash.matches(secret: secret, storedHex: key.secretHash) {
                switch key.role {
                case .admin: found = .admin
                case .editor: found = .editor(keyId: key.keyId, publications: Set(key.publications))
                case .service: found = .service(keyId: key.keyId)
                }
            } else if let account = try store.account(tokenHash: hash),
                      SecretHash.matches(secret: secret, storedHex: account.tokenHash) {
                found = .account(account.id)
            } else {
                found = nil
            }
        } catch {
            throw APIError(error)
        }
        if let found {
            cache.withLock { cache in
                guard cache.generation == generation else { return }
                if cache.principals.count >= cacheLimit { cache.principals.removeAll(keepingCapacity: true) }
                cache.principals[hash] = found
            }
        }
        return found
    }
}
