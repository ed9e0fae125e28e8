import DownloadTokens
import Entitle
import GatewayCrypto
import GatewayStore
import HTTPServer
import Synchronization

/// Resolves `Authorization: Bearer <secret>` to a principal. Secrets are known only by their
/// SHA-256 (http-api.md, Auth); the admin key's hash is compared in constant time, the others are
/// found by hash and confirmed in constant time. Resolved secrets are kept within a byte budget
/// (`CacheBudget`). Revoking a key drops that key's resolution only, so it stops working at once;
/// a lookup of that key that raced with the revocation is answered but not kept
/// (`InvalidationLog`), so a request in flight during `DELETE /v1/keys/{id}` cannot put the
/// revoked key back into the cache.
final class Authenticator: Sendable {
    /// A resolution, with the API key it came from (nil for an account's token).
    private struct Resolved {
        var principal: Principal
        var keyId: String?

        var heapBytes: Int {
            let principalBytes: Int
            switch principal {
            case .admin: principalBytes = 0
            case .editor(let keyId, let publications):
                principalBytes = MemoryFootprint.string(keyId) + MemoryFootprint.strings(publications)
                    + MemoryFootprint.heapHeaderBytes + publications.count * 2 * MemoryLayout<String>.stride
            case .service(let keyId): principalBytes = MemoryFootprint.string(keyId)
            case .account(let id): principalBytes = MemoryFootprint.string(id)
            }
            return principalBytes + MemoryFootprint.optionalString(keyId)
        }
    }

    private struct Cache {
        var principals: ByteBudgetLRU<SecretDigest, Resolved>
        /// The secret digest each API key was resolved under, to drop it on revocation.
        var keyHashes: [String: SecretDigest] = [:]
        var revocations: InvalidationLog<String>
    }

    private let store: any GatewayStore
    private let adminKeyDigest: SecretDigest
    private let cache: Mutex<Cache>
    /// While not trusted, resolutions are neither served from nor kept in memory (issue 11).
    private let coherence: CacheCoherence

    init(store: any GatewayStore, adminKey: String, cacheBytes: Int, coherence: CacheCoherence = CacheCoherence())
        throws(CryptoError) {
        self.store = store
        self.coherence = coherence
        self.adminKeyDigest = try SecretDigest(of: adminKey)
        cache = Mutex(Cache(principals: ByteBudgetLRU(budget: cacheBytes),
                            revocations: InvalidationLog(capacity: AccountFactsCache.rememberedInvalidations)))
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

    /// The principal from memory alone: nil when the secret is missing, or not resolved before
    /// (the store would have to be asked).
    func cachedPrincipal(_ request: HTTPRequest) -> Principal? {
        // One SHA-256 per request, compared with the admin key's and looked up as it is.
        guard let secret = Self.bearerSecret(request), let digest = try? SecretDigest(of: secret) else { return nil }
        if digest.matches(adminKeyDigest) { return .admin }
        guard coherence.isTrusted else { return nil }
        return cache.withLock { $0.principals.value(for: digest)?.principal }
    }

    /// A revoked API key stops resolving at once; every other resolution is kept.
    func forget(keyId: String) {
        cache.withLock { cache in
            cache.revocations.invalidate(CollectionOfOne(keyId))
            if let digest = cache.keyHashes.removeValue(forKey: keyId) { cache.principals.removeValue(for: digest) }
        }
    }

    /// Forgets every resolution (a change feed that lost entries).
    func forgetAll() {
        cache.withLock { cache in
            cache.revocations.invalidateAll()
            cache.keyHashes.removeAll()
            cache.principals.removeAll()
        }
    }

    var stats: CacheStats { cache.withLock { $0.principals.stats } }

    private func resolve(_ secret: String) throws(APIError) -> Principal? {
        let digest: SecretDigest
        do { digest = try SecretDigest(of: secret) } catch { throw .internalError("hashing failed") }
        if digest.matches(adminKeyDigest) { return .admin }
        let trusted = coherence.isTrusted
        let (cached, ticket) = cache.withLock { (trusted ? $0.principals.value(for: digest) : nil, $0.revocations.ticket()) }
        if let cached { return cached.principal }
        let found: Resolved?
        do {
            let hash = digest.hex
            if let key = try store.apiKey(secretHash: hash), digest.matches(storedHex: key.secretHash) {
                switch key.role {
                case .admin: found = Resolved(principal: .admin, keyId: key.keyId)
                case .editor: found = Resolved(principal: .editor(keyId: key.keyId, publications: Set(key.publications)),
                                               keyId: key.keyId)
                case .service: found = Resolved(principal: .service(keyId: key.keyId), keyId: key.keyId)
                }
            } else if let account = try store.account(tokenHash: hash),
                      digest.matches(storedHex: account.tokenHash) {
                found = Resolved(principal: .account(account.id), keyId: nil)
            } else {
                found = nil
            }
        } catch {
            throw APIError(error)
        }
        guard let found else { return nil }
        let bytes = found.heapBytes
        cache.withLock { cache in
            guard coherence.isTrusted else { return }
            if let keyId = found.keyId {
                guard cache.revocations.isCurrent(ticket, for: keyId) else { return }
                cache.keyHashes[keyId] = digest
            }
            cache.principals.insert(found, for: digest, bytes: bytes)
        }
        return found.principal
    }
}
