import DownloadTokens
import Entitle
import GatewayCrypto
import GatewayStore
import Metrics
import Synchronization

/// Resolves `Authorization: Bearer <secret>` to a principal. Secrets are known only by their
/// SHA-256 (http-api.md, Auth); the admin key's hash is compared in constant time, the others are
/// found by hash and confirmed in constant time. Resolved secrets are kept within a byte budget
/// (`CacheBudget`). Revoking a key drops that key's resolution only, so it stops working at once;
/// a lookup of that key that raced with the revocation is answered but not kept
/// (`InvalidationLog`), so a request in flight during `DELETE /v1/keys/{id}` cannot put the
/// revoked key back into the cache.
package final class Authenticator: Sendable {
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
    /// While not trusted, resolutions are neither served from nor kept in memory.
    private let coherence: CacheCoherence
    /// Counts `digest(of:)`: at most one per request.
    private let secretsHashed: Counter?

    package init(store: any GatewayStore, adminKey: String, cacheBytes: Int, coherence: CacheCoherence = CacheCoherence(),
                 secretsHashed: Counter? = nil) throws(CryptoError) {
        self.store = store
        self.coherence = coherence
        self.secretsHashed = secretsHashed
        self.adminKeyDigest = try SecretDigest(of: adminKey)
        cache = Mutex(Cache(principals: ByteBudgetLRU(budget: cacheBytes),
                            revocations: InvalidationLog(capacity: AccountFactsCache.rememberedInvalidations)))
    }

    /// The digest a bearer secret is known by (one SHA-256).
    package func digest(of secret: String) throws(GatewayError) -> SecretDigest {
        secretsHashed?.increment()
        do { return try SecretDigest(of: secret) } catch { throw .failed("hashing failed") }
    }

    /// The principal from memory alone: nil when the secret was not resolved before (the store
    /// would have to be asked).
    package func cachedPrincipal(_ digest: SecretDigest) -> Principal? {
        if digest.matches(adminKeyDigest) { return .admin }
        guard coherence.isTrusted else { return nil }
        return cache.withLock { $0.principals.value(for: digest)?.principal }
    }

    /// A revoked API key stops resolving at once; every other resolution is kept.
    package func forget(keyId: String) {
        cache.withLock { cache in
            cache.revocations.invalidate(CollectionOfOne(keyId))
            if let digest = cache.keyHashes.removeValue(forKey: keyId) { cache.principals.removeValue(for: digest) }
        }
    }

    /// A deleted account's secrets stop resolving at once (E35); a lookup that raced with the
    /// deletion is answered but not kept.
    package func forget(accountId: String) {
        cache.withLock { cache in
            cache.revocations.invalidate(CollectionOfOne(Self.accountKey(accountId)))
            cache.principals.removeAll { $0.principal == .account(accountId) }
        }
    }

    /// Accounts and API keys share the revocation log, apart by prefix.
    private static func accountKey(_ accountId: String) -> String { "account:" + accountId }

    /// Forgets every resolution (a change feed that lost entries).
    package func forgetAll() {
        cache.withLock { cache in
            cache.revocations.invalidateAll()
            cache.keyHashes.removeAll()
            cache.principals.removeAll()
        }
    }

    package var stats: CacheStats { cache.withLock { $0.principals.stats } }

    /// The principal a secret's digest names; nil when it names none.
    package func resolve(_ digest: SecretDigest) throws(GatewayError) -> Principal? {
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
            throw GatewayError(error)
        }
        guard let found else { return nil }
        let bytes = found.heapBytes
        cache.withLock { cache in
            guard coherence.isTrusted else { return }
            if let keyId = found.keyId {
                guard cache.revocations.isCurrent(ticket, for: keyId) else { return }
                cache.keyHashes[keyId] = digest
            } else if case .account(let accountId) = found.principal {
                guard cache.revocations.isCurrent(ticket, for: Self.accountKey(accountId)) else { return }
            }
            cache.principals.insert(found, for: digest, bytes: bytes)
        }
        return found.principal
    }
}
