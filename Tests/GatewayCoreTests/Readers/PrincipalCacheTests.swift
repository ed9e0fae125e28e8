import GatewayCore
import GatewayCrypto
import GatewayStore
import Testing
import TestSupport
import Wire

/// The principals cache stays within its budget with everything it keeps beside it: the ids a
/// revocation looks up (an ended session, a revoked key) leave with their principal, so readers
/// passing through a small cache leave nothing behind.
@Suite struct PrincipalCacheTests {
    struct FixedClock: GatewayClock {
        let instant: Instant
        func now() -> Instant { instant }
    }

    let t0 = Instant(millisecondsSinceEpoch: 1_767_225_600_000)

    @Test func e34theIdsKeptForRevocationLeaveWithTheirEvictedPrincipals() throws {
        let database = TemporaryDatabase()
        let store = try database.open()
        let readers = 40
        var digests: [SecretDigest] = []
        for n in 0..<readers {
            let digest = try SecretDigest(of: "reader-secret-\(n)-0123456789abcdef")
            _ = try store.createAccount(Account(id: "a\(n)", tokenHash: digest.hex, createdAt: t0),
                                        firstSession: Session(id: "s\(n)", accountId: "a\(n)", tokenHash: digest.hex, createdAt: t0))
            digests.append(digest)
        }
        let authenticator = try Authenticator(store: store, adminKey: String(repeating: "k", count: 32), cacheBytes: 2_000,
                                              clock: FixedClock(instant: t0), touches: SessionTouches(store: store))
        for (n, digest) in digests.enumerated() {
            #expect(try authenticator.resolveSession(digest)?.sessionId == "s\(n)")
        }
        let kept = authenticator.stats.entries
        #expect(kept > 0 && kept < readers, "the budget holds some of the readers, not all")
        #expect(authenticator.revocableIds == kept)
        // An account deleted (E35) takes its kept session's id with it.
        authenticator.forget(accountId: "a\(readers - 1)")
        #expect(authenticator.stats.entries == kept - 1)
        #expect(authenticator.revocableIds == kept - 1)
    }

    /// A cache too small for any principal keeps no ids either: every request reads the store.
    @Test func e34aCacheTooSmallForOnePrincipalKeepsNoIds() throws {
        let database = TemporaryDatabase()
        let store = try database.open()
        let digest = try SecretDigest(of: "reader-secret-0123456789abcdef")
        _ = try store.createAccount(Account(id: "a1", tokenHash: digest.hex, createdAt: t0),
                                    firstSession: Session(id: "s1", accountId: "a1", tokenHash: digest.hex, createdAt: t0))
        let authenticator = try Authenticator(store: store, adminKey: String(repeating: "k", count: 32), cacheBytes: 8,
                                              clock: FixedClock(instant: t0), touches: SessionTouches(store: store))
        #expect(try authenticator.resolveSession(digest)?.sessionId == "s1")
        #expect(authenticator.stats.entries == 0)
        #expect(authenticator.revocableIds == 0)
    }
}
