import Foundation
import GatewayStore
import Synchronization
import Testing
import TestSupport
import Wire

/// readers.md E31 step 5: a nonce the gateway issued is live until it expires or is used, and is
/// used up once, on every backend and across processes sharing a PostgreSQL database.
@Suite struct StoreSignInNonceTests {
    static let issued = Fixtures.instant("2026-03-01T10:00:00Z")
    static let expires = issued.adding(seconds: 600)

    @Test(arguments: StoreBackend.all)
    func e31ANonceIsLiveUntilUsedOnceOrExpired(_ backend: StoreBackend) throws {
        let opened = try backend.open()
        let store = opened.store
        #expect(!(try store.signInNonceIsLive(hash: "a", now: Self.issued)), "never issued")
        #expect(!(try store.useSignInNonce(hash: "a", now: Self.issued)), "a nonce never issued is not used")
        try store.issueSignInNonce(hash: "a", expiresAt: Self.expires, now: Self.issued)
        try store.issueSignInNonce(hash: "b", expiresAt: Self.expires, now: Self.issued)
        #expect(try store.signInNonceIsLive(hash: "a", now: Self.issued.adding(seconds: 599)))
        #expect(try store.useSignInNonce(hash: "a", now: Self.issued.adding(seconds: 1)))
        #expect(!(try store.useSignInNonce(hash: "a", now: Self.issued.adding(seconds: 2))), "used twice")
        #expect(!(try store.signInNonceIsLive(hash: "a", now: Self.issued.adding(seconds: 2))))
        #expect(!(try store.signInNonceIsLive(hash: "b", now: Self.expires)), "expired at its instant")
        #expect(!(try store.useSignInNonce(hash: "b", now: Self.expires)), "an expired nonce is not used")
    }

    @Test(arguments: StoreBackend.all)
    func e31NoncesPastTheirExpiryAreDeletedAsNewOnesAreIssued(_ backend: StoreBackend) throws {
        let opened = try backend.open()
        let store = opened.store
        try store.issueSignInNonce(hash: "old", expiresAt: Self.expires, now: Self.issued)
        let later = Self.expires.adding(seconds: 1)
        try store.issueSignInNonce(hash: "new", expiresAt: later.adding(seconds: 600), now: later)
        // A row still there would be found by an instant before its expiry.
        #expect(!(try store.signInNonceIsLive(hash: "old", now: Self.issued)), "the expired row is gone")
        #expect(try store.signInNonceIsLive(hash: "new", now: later))
    }
}

/// Two processes presenting one nonce at once: exactly one uses it.
@Suite(.postgresCluster)
struct PostgresSignInNonceTests {
    @Test func e31ANonceIsUsedOnceAcrossProcesses() throws {
        let schema = try TemporaryPostgresSchema()
        let a = try schema.open(), b = try schema.open()
        let now = StoreSignInNonceTests.issued
        for index in 0..<10 { try a.issueSignInNonce(hash: "n\(index)", expiresAt: StoreSignInNonceTests.expires, now: now) }
        let used = Mutex<[String: Int]>([:])
        let group = DispatchGroup()
        for thread in 0..<20 {
            group.enter()
            Thread {
                let store = thread % 2 == 0 ? a : b
                for index in 0..<10 where (try? store.useSignInNonce(hash: "n\(index)", now: now)) == true {
                    used.withLock { $0["n\(index)", default: 0] += 1 }
                }
                group.leave()
            }.start()
        }
        group.wait()
        #expect(used.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<10).map { ("n\($0)", 1) }))
    }
}
