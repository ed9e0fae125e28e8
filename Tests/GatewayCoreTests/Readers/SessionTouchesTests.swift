import Testing
import GatewayCore
import GatewayCrypto
import GatewayStore
import Synchronization
import TestSupport
import Wire

/// E34: "`lastUsedAt` moves at most once an hour per session (a request is not a write)": the
/// request that finds its session due notes the move in memory, and `SessionTouches` stores it.
@Suite struct SessionTouchesTests {
    final class Clock: GatewayClock {
        let current: Mutex<Instant>
        init(_ start: Instant) { current = Mutex(start) }
        func now() -> Instant { current.withLock { $0 } }
        func set(_ instant: Instant) { current.withLock { $0 = instant } }
    }

    let t0 = Instant(millisecondsSinceEpoch: 1_767_225_600_000)
    let secret = "reader-secret-0123456789abcdef"

    func world() throws -> (store: any GatewayStore, authenticator: Authenticator, touches: SessionTouches, clock: Clock,
                           database: TemporaryDatabase) {
        let database = TemporaryDatabase()
        let store = try database.open()
        let hash = try SecretDigest(of: secret).hex
        _ = try store.createAccount(Account(id: "a1", tokenHash: hash, createdAt: t0),
                                    firstSession: Session(id: "s1", accountId: "a1", tokenHash: hash, createdAt: t0))
        let clock = Clock(t0)
        let touches = SessionTouches(store: store)
        let authenticator = try Authenticator(store: store, adminKey: String(repeating: "k", count: 32), cacheBytes: 1 << 20,
                                              clock: clock, touches: touches)
        return (store, authenticator, touches, clock, database)
    }

    func lastUsed(_ store: any GatewayStore) throws -> Instant? { try store.session(tokenHash: try SecretDigest(of: secret).hex)?.lastUsedAt }

    @Test func e34ARequestDueForTheHourlyMoveWritesNothingAndTheMoveIsStoredByTheFlush() throws {
        let w = try world()
        let later = t0.adding(seconds: 3600)
        w.clock.set(later)
        let digest = try SecretDigest(of: secret)
        #expect(try w.authenticator.resolveSession(digest)?.sessionId == "s1")
        #expect(try lastUsed(w.store) == t0, "the request wrote nothing")
        w.touches.flush()
        #expect(try lastUsed(w.store) == later)
        // Within the hour: answered from memory, nothing noted.
        w.clock.set(later.adding(seconds: 1800))
        #expect(try w.authenticator.resolveSession(digest)?.sessionId == "s1")
        w.touches.flush()
        #expect(try lastUsed(w.store) == later)
    }

    @Test func e34AMoveStoredMeanwhileByAnotherProcessIsNotUndone() throws {
        let w = try world()
        let noted = t0.adding(seconds: 3600), elsewhere = t0.adding(seconds: 3700)
        w.touches.touch("s1", at: noted)
        #expect(try w.store.write { tx throws(StoreError) in try tx.touch([SessionTouch(sessionId: "s1", at: elsewhere, ifUnusedSince: t0)]) } == 1)
        w.touches.flush()
        #expect(try lastUsed(w.store) == elsewhere)
    }

    @Test func e34AnEndedSessionIsNotMovedAndTheLatestOfTwoNotedMovesIsStored() throws {
        let w = try world()
        w.touches.touch("s1", at: t0.adding(seconds: 7200))
        w.touches.touch("s1", at: t0.adding(seconds: 3600))
        w.touches.flush()
        #expect(try lastUsed(w.store) == t0.adding(seconds: 7200))
        #expect(try w.store.write { tx throws(StoreError) in try tx.endSession(id: "s1", at: t0.adding(seconds: 7300)) })
        w.touches.touch("s1", at: t0.adding(seconds: 20_000))
        w.touches.flush()
        #expect(try lastUsed(w.store) == t0.adding(seconds: 7200))
    }
}
