import DownloadTokens
import Entitle
import GatewayCrypto
import GatewayStore
import Metrics
import Synchronization
import Wire

/// Resolves `Authorization: Bearer <secret>` to a principal. Secrets are known only by their
/// SHA-256 (http-api.md, Auth); the admin key's hash is compared in constant time, the others are
/// found by hash and confirmed in constant time. Resolved secrets are kept within a byte budget
/// (`CacheBudget`). Revoking a key drops that key's resolution only, so it stops working at once;
/// a lookup of that key that raced with the revocation is answered but not kept
/// (`InvalidationLog`), so a request in flight during `DELETE /v1/keys/{id}` cannot put the
/// revoked key back into the cache. An account's token is a session (E34): it resolves while the
/// session is live, notes the session's hourly `lastUsedAt` move (`SessionTouches`), and an ended session's
/// resolution is dropped the same way as a revoked key's (here at once, on other processes when
/// their change feed brings `StoreChange.session`).
package final class Authenticator: Sendable {
    /// What a resolution is dropped by.
    private enum Revocable: Hashable {
        case key(String)
        case session(String)
        case account(String)
    }

    /// A session a token resolved to, as last read.
    private struct SessionSeen {
        var id: String
        var lastUsedAt: Instant
    }

    /// A resolution, with the API key it came from (nil for an account's token).
    private struct Resolved {
        var principal: Principal
        var keyId: String?
        var session: SessionSeen?

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
            // The id's slot in `keyHashes` or `sessionHashes` (the id's text is shared, not copied),
            // at a dictionary's load of about half.
            let slot = MemoryLayout<String>.stride + MemoryLayout<SecretDigest>.stride
            let revocable = keyId != nil || session != nil ? 2 * slot : 0
            return principalBytes + MemoryFootprint.optionalString(keyId) + MemoryFootprint.optionalString(session?.id)
                + revocable
        }
    }

    private struct Cache {
        var principals: ByteBudgetLRU<SecretDigest, Resolved>
        /// The secret digest each API key was resolved under, to drop it on revocation.
        var keyHashes: [String: SecretDigest] = [:]
        /// The secret digest each session was resolved under, to drop it when the session ends.
        /// Both name kept principals only: an entry leaves with its principal, so a million
        /// readers passing through do not leave a million ids behind.
        var sessionHashes: [String: SecretDigest] = [:]
        var revocations: InvalidationLog<Revocable>

        mutating func keep(_ found: Resolved, for digest: SecretDigest, bytes: Int) {
            if let keyId = found.keyId { keyHashes[keyId] = digest }
            if let session = found.session { sessionHashes[session.id] = digest }
            for old in principals.insertEvicting(found, for: digest, bytes: bytes) { forgetIds(of: old) }
            // An entry larger than the whole budget is not kept: nor are its ids.
            if principals.peek(digest) == nil { forgetIds(of: found) }
        }

        /// Drops the ids of a principal that left the cache (unless a newer one took the id).
        mutating func forgetIds(of old: Resolved) {
            if let keyId = old.keyId, let digest = keyHashes[keyId], principals.peek(digest) == nil {
                keyHashes[keyId] = nil
            }
            if let session = old.session, let digest = sessionHashes[session.id], principals.peek(digest) == nil {
                sessionHashes[session.id] = nil
            }
        }
    }

    private let store: any GatewayStore
    private let adminKeyDigest: SecretDigest
    private let cache: Mutex<Cache>
    /// While not trusted, resolutions are neither served from nor kept in memory.
    private let coherence: CacheCoherence
    /// Counts `digest(of:)`: at most one per request.
    private let secretsHashed: Counter?
    private let clock: any GatewayClock
    private let sessions: SessionPolicy
    /// Where a session's hourly move is noted (E34: a request is not a write).
    private let touches: SessionTouches

    package init(store: any GatewayStore, adminKey: String, cacheBytes: Int, coherence: CacheCoherence = CacheCoherence(),
                 secretsHashed: Counter? = nil, clock: any GatewayClock = SystemClock(),
                 sessions: SessionPolicy = .standard, touches: SessionTouches) throws(CryptoError) {
        self.store = store
        self.touches = touches
        self.clock = clock
        self.sessions = sessions
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
    /// would have to be asked), or when its session is due for its hourly `lastUsedAt` move or
    /// may have idled out (a write or a read the route's handler makes).
    package func cachedPrincipal(_ digest: SecretDigest) -> Principal? {
        if digest.matches(adminKeyDigest) { return .admin }
        guard coherence.isTrusted, let found = cache.withLock({ $0.principals.value(for: digest) }) else { return nil }
        if let session = found.session, !isFresh(session, now: clock.now()) { return nil }
        return found.principal
    }

    /// A revoked API key stops resolving at once; every other resolution is kept.
    package func forget(keyId: String) {
        cache.withLock { cache in
            cache.revocations.invalidate(CollectionOfOne(Revocable.key(keyId)))
            if let digest = cache.keyHashes.removeValue(forKey: keyId) { cache.principals.removeValue(for: digest) }
        }
    }

    /// A deleted account's secrets stop resolving at once (E35); a lookup that raced with the
    /// deletion is answered but not kept.
    package func forget(accountId: String) {
        cache.withLock { cache in
            cache.revocations.invalidate(CollectionOfOne(Revocable.account(accountId)))
            var removed: [Resolved] = []
            cache.principals.removeAll { resolved in
                guard resolved.principal == .account(accountId) else { return false }
                removed.append(resolved)
                return true
            }
            for old in removed { cache.forgetIds(of: old) }
        }
    }

    /// E34: an ended session's token stops resolving at once; every other resolution is kept.
    package func forget(sessionId: String) {
        cache.withLock { cache in
            cache.revocations.invalidate(CollectionOfOne(Revocable.session(sessionId)))
            if let digest = cache.sessionHashes.removeValue(forKey: sessionId) { cache.principals.removeValue(for: digest) }
        }
    }

    /// Forgets every resolution (a change feed that lost entries).
    package func forgetAll() {
        cache.withLock { cache in
            cache.revocations.invalidateAll()
            cache.keyHashes.removeAll()
            cache.sessionHashes.removeAll()
            cache.principals.removeAll()
        }
    }

    package var stats: CacheStats { cache.withLock { $0.principals.stats } }

    /// The API keys and sessions a revocation can find in memory: never more than `stats.entries`.
    package var revocableIds: Int { cache.withLock { $0.keyHashes.count + $0.sessionHashes.count } }

    /// The principal a secret's digest names; nil when it names none.
    package func resolve(_ digest: SecretDigest) throws(GatewayError) -> Principal? {
        try resolveSession(digest)?.principal
    }

    /// The principal a secret's digest names with, for an account's token, its session's id (E34:
    /// what `current` and sign-out name); nil when it names none or its session has ended.
    package func resolveSession(_ digest: SecretDigest) throws(GatewayError) -> (principal: Principal, sessionId: String?)? {
        if digest.matches(adminKeyDigest) { return (.admin, nil) }
        let trusted = coherence.isTrusted
        let now = clock.now()
        let (cached, ticket) = cache.withLock { (trusted ? $0.principals.value(for: digest) : nil, $0.revocations.ticket()) }
        // A session due for its hourly move, or maybe idle, is read again (another process may
        // have moved it).
        if let cached, cached.session.map({ isFresh($0, now: now) }) ?? true {
            return (cached.principal, cached.session?.id)
        }
        var found: Resolved?
        do {
            let hash = digest.hex
            // Sessions first: readers are the many (a publication morning's first requests), and
            // a secret names at most one record, as both kinds are random secrets made here; so
            // the order decides only the cost, one statement for a reader.
            if var session = try store.session(tokenHash: hash), digest.matches(storedHex: session.tokenHash) {
                if session.isLive(idleCutoff: sessions.idleCutoff(now: now)) {
                    // E34: a request is not a write; the session's last use moves once an hour,
                    // noted here and stored within a second (not moved there when another process
                    // moved it within the hour: then it is as recent).
                    if sessions.isTouchDue(lastUsedAt: session.lastUsedAt, now: now) {
                        touches.touch(session.id, at: now)
                        session.lastUsedAt = now
                    }
                    found = Resolved(principal: .account(session.accountId), keyId: nil,
                                     session: SessionSeen(id: session.id, lastUsedAt: session.lastUsedAt))
                } else {
                    found = nil
                }
            } else if let key = try store.apiKey(secretHash: hash), digest.matches(storedHex: key.secretHash) {
                switch key.role {
                case .admin: found = Resolved(principal: .admin, keyId: key.keyId)
                case .editor: found = Resolved(principal: .editor(keyId: key.keyId, publications: Set(key.publications)),
                                               keyId: key.keyId)
                case .service: found = Resolved(principal: .service(keyId: key.keyId), keyId: key.keyId)
                }
            } else {
                found = nil
            }
        } catch {
            throw GatewayError(error)
        }
        guard let found else {
            // An ended or idle session: its earlier resolution goes too.
            if let cached, let session = cached.session { forget(sessionId: session.id) }
            return nil
        }
        let bytes = found.heapBytes
        cache.withLock { cache in
            guard coherence.isTrusted else { return }
            if let keyId = found.keyId {
                guard cache.revocations.isCurrent(ticket, for: .key(keyId)) else { return }
            } else if case .account(let accountId) = found.principal {
                guard cache.revocations.isCurrent(ticket, for: .account(accountId)) else { return }
            }
            if let session = found.session {
                guard cache.revocations.isCurrent(ticket, for: .session(session.id)) else { return }
            }
            cache.keep(found, for: digest, bytes: bytes)
        }
        return (found.principal, found.session?.id)
    }

    /// Whether a session seen at `session.lastUsedAt` is live and not due for its move at `now`.
    private func isFresh(_ session: SessionSeen, now: Instant) -> Bool {
        !sessions.isTouchDue(lastUsedAt: session.lastUsedAt, now: now)
    }
}
