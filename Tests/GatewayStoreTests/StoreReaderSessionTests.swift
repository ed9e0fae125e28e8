import Entitle
import GatewayStore
import IssueCatalog
import Testing
import Wire

/// readers.md's rows on both backends: sessions (E34), identities (E31/E32), link codes (E33)
/// and the merge of one account into another (E32).
@Suite struct StoreReaderSessionTests {
    static func session(_ id: String, of account: String, device: String? = nil, identity: IdentityKey? = nil,
                        at instant: Instant = Fixtures.t0) -> Session {
        Session(id: id, accountId: account, tokenHash: "hash-\(id)", device: SessionDevice(id: device, name: device, platform: "ios"),
                identity: identity, createdAt: instant)
    }

    @Test(arguments: StoreBackend.all)
    func e34SessionsAreFoundByHashEndOnceAndIdleOnesAreNotLive(_ backend: StoreBackend) throws {
        let opened = try backend.open()
        let store = opened.store
        try store.createAccount(Fixtures.account("a1"), firstSession: Self.session("s1", of: "a1"))
        let s2 = Self.session("s2", of: "a1", device: "phone", at: Fixtures.instant("2026-01-05T00:00:00Z"))
        #expect(try store.write { tx throws(StoreError) in try tx.insert(s2) })
        #expect(try store.write { tx throws(StoreError) in try tx.insert(s2) } == false, "its id and hash are taken")
        #expect(try store.session(tokenHash: "hash-s2") == s2)
        #expect(try store.liveSessions(ofAccount: "a1", idleCutoff: Fixtures.t0).map(\.id) == ["s1", "s2"])
        #expect(try store.liveSessions(ofAccount: "a1", idleCutoff: Fixtures.instant("2026-01-02T00:00:00Z")).map(\.id) == ["s2"])
        let later = Fixtures.instant("2026-01-03T00:00:00Z")
        let touch = SessionTouch(sessionId: "s1", at: later, ifUnusedSince: Fixtures.t0)
        #expect(try store.write { tx throws(StoreError) in try tx.touch([touch]) } == 1)
        #expect(try store.write { tx throws(StoreError) in
            try tx.touch([SessionTouch(sessionId: "s1", at: later.adding(seconds: 60), ifUnusedSince: Fixtures.t0)])
        } == 0, "used since")
        #expect(try store.session(tokenHash: "hash-s1")?.lastUsedAt == later)
        #expect(try store.write { tx throws(StoreError) in try tx.endSession(id: "s2", at: later) })
        #expect(try store.write { tx throws(StoreError) in try tx.endSession(id: "s2", at: later) } == false)
        #expect(try store.session(tokenHash: "hash-s2")?.endedAt == later)
        #expect(try store.liveSessions(ofAccount: "a1", idleCutoff: Fixtures.t0).map(\.id) == ["s1"])
    }

    @Test(arguments: StoreBackend.all)
    func e33ALinkCodeIsUsedOnceAndNotAfterItExpires(_ backend: StoreBackend) throws {
        let opened = try backend.open()
        let store = opened.store
        try store.createAccount(Fixtures.account("a1"))
        let expires = Fixtures.instant("2026-01-01T00:15:00Z")
        for hash in ["c1", "c2"] {
            #expect(try store.write { tx throws(StoreError) in
                try tx.insert(LinkCode(codeHash: hash, accountId: "a1", createdAt: Fixtures.t0, expiresAt: expires))
            })
        }
        #expect(try store.read { tx throws(StoreError) in try tx.liveLinkCode(hash: "c1", at: Fixtures.t0) } == "a1")
        #expect(try store.write { tx throws(StoreError) in try tx.useLinkCode(hash: "c1", at: Fixtures.t0) })
        #expect(try store.write { tx throws(StoreError) in try tx.useLinkCode(hash: "c1", at: Fixtures.t0) } == false)
        #expect(try store.read { tx throws(StoreError) in try tx.liveLinkCode(hash: "c1", at: Fixtures.t0) } == nil)
        #expect(try store.write { tx throws(StoreError) in try tx.useLinkCode(hash: "c2", at: expires) } == false)
        #expect(try store.read { tx throws(StoreError) in try tx.liveLinkCode(hash: "nope", at: Fixtures.t0) } == nil)
    }

    @Test(arguments: StoreBackend.all)
    func e32AnIdentityKeepsItsAccountAndTakesEachSignInsClaims(_ backend: StoreBackend) throws {
        let opened = try backend.open()
        let store = opened.store
        try store.createAccount(Fixtures.account("a1"))
        try store.createAccount(Fixtures.account("a2"))
        let key = IdentityKey(provider: "apple", subject: "001.abc")
        try store.write { tx throws(StoreError) in
            try tx.save(Identity(key: key, accountId: "a1", email: "R@Example.com", emailVerified: true, isPrivateEmail: false,
                                 realUserStatus: 2, createdAt: Fixtures.t0))
            try tx.save(Identity(key: key, accountId: "a2", email: "new@example.com", emailVerified: false, createdAt: Fixtures.t0))
        }
        let stored = try #require(try store.read { tx throws(StoreError) in try tx.identity(key) })
        #expect(stored.accountId == "a1", "a sign-in never moves an identity")
        #expect(stored.email == "new@example.com" && stored.emailVerified == false && stored.isPrivateEmail == nil)
        #expect(try store.read { tx throws(StoreError) in try tx.identities(email: "NEW@example.com") }.map(\.accountId) == ["a1"])
        try store.write { tx throws(StoreError) in
            _ = try tx.insert(Self.session("s1", of: "a1", identity: key))
            _ = try tx.insert(Self.session("s2", of: "a1"))
        }
        #expect(try store.write { tx throws(StoreError) in try tx.endSessions(madeWith: key, at: Fixtures.t0) } == ["s1"])
        #expect(try store.write { tx throws(StoreError) in try tx.deleteIdentity(key) })
        #expect(try store.identities(ofAccount: "a1").isEmpty)
    }

    @Test(arguments: StoreBackend.all)
    func e32AMergeMovesEverythingEndsTheSessionsRecordsBothHistoriesAndFollowsChains(_ backend: StoreBackend) throws {
        let opened = try backend.openWithCatalog()
        let store = opened.store
        for id in ["a", "b", "c"] {
            try store.createAccount(Fixtures.account(id, appAccountToken: id == "a" ? "6e0f3f4e-0000-4000-8000-00000000000a" : nil),
                                    firstSession: Self.session("s-\(id)", of: id))
        }
        _ = try store.ingest(IngestBatch(accountId: "a", transactions: [Fixtures.transaction("1", original: "1")], at: Fixtures.t0),
                             policy: .keep)
        _ = try store.give(Grant(grantId: "g1", accountId: "a", source: "print", externalId: "x", publications: ["monthly"],
                                 start: Fixtures.t0, end: nil, createdAt: Fixtures.t0))
        try store.write { tx throws(StoreError) in
            try tx.save(Device(accountId: "a", apnsToken: String(repeating: "ab", count: 32), environment: .production,
                               registeredAt: Fixtures.t0))
            _ = try tx.insert(LinkCode(codeHash: "code-a", accountId: "a", createdAt: Fixtures.t0,
                                       expiresAt: Fixtures.instant("2026-01-01T00:15:00Z")))
        }
        let versions = try store.read { tx throws(StoreError) in (try tx.factsVersion(ofAccount: "a"), try tx.factsVersion(ofAccount: "b")) }
        let ended = try store.write { tx throws(StoreError) in try tx.merge("a", into: "b", at: Fixtures.t0) }
        #expect(ended == ["s-a"])
        #expect(try store.write { tx throws(StoreError) in try tx.merge("a", into: "b", at: Fixtures.t0) } == nil, "merged already")
        #expect(try store.accountFacts("b").facts.transactions.map(\.transactionId) == ["1"])
        #expect(try store.read { tx throws(StoreError) in try tx.grants(ofAccount: "b") }.map(\.grantId) == ["g1"])
        #expect(try store.devices(ofAccount: "b").count == 1)
        #expect(try store.read { tx throws(StoreError) in try tx.liveLinkCode(hash: "code-a", at: Fixtures.t0) } == nil)
        #expect(try store.liveSessions(ofAccount: "a", idleCutoff: Fixtures.t0).isEmpty)
        let after = try store.read { tx throws(StoreError) in (try tx.factsVersion(ofAccount: "a"), try tx.factsVersion(ofAccount: "b")) }
        #expect(after.0 > versions.0 && after.1 > versions.1)
        let onB = try #require(try store.history(ofAccount: "b", after: nil, limit: 100)).events.filter { $0.kind == .merged }
        #expect(onB.map { $0.details["mergedFrom"]?.stringValue } == ["a"] && onB.first?.source == .signIn)
        let onA = try #require(try store.history(ofAccount: "a", after: nil, limit: 100)).events.filter { $0.kind == .merged }
        #expect(onA.map { $0.details["mergedInto"]?.stringValue } == ["b"])
        // A chain: b merged into c; a reaches c.
        _ = try store.write { tx throws(StoreError) in try tx.merge("b", into: "c", at: Fixtures.t0) }
        #expect(try store.reachedAccount(id: "a")?.id == "c")
        #expect(try store.reachedAccount(id: "c")?.id == "c")
        #expect(try store.reachedAccount(id: "nobody") == nil)
        // a's appAccountToken, on a purchase another account posts, reaches c (E4's V2 rule).
        _ = try store.ingest(IngestBatch(accountId: "c", transactions: [
            Fixtures.transaction("2", original: "2", token: "6e0f3f4e-0000-4000-8000-00000000000a")], at: Fixtures.t0), policy: .keep)
        #expect(try store.owner(of: SubscriptionKey(environment: .production, originalTransactionId: "2")) == "c")
    }

    /// 90 touches are written as chunks of 64, 16, 4, 4, 1 and 1 (`SQLRowChunks`): each chunk's
    /// sessions move only when live and not moved since, wherever in the batch they stand.
    @Test(arguments: StoreBackend.all)
    func e34ABatchOfTouchesMovesOnlyTheLiveSessionsNotMovedSince(_ backend: StoreBackend) throws {
        let opened = try backend.open()
        let store = opened.store
        let ids = (0..<90).map { String(format: "s%02d", $0) }
        try store.createAccount(Fixtures.account("a1"))
        for id in ids { #expect(try store.write { tx throws(StoreError) in try tx.insert(Self.session(id, of: "a1")) }) }
        let later = Fixtures.t0.adding(seconds: 7200)
        let ended = Set(ids.filter { $0.hasSuffix("7") })  // in the 64-row chunk and the 16-row one
        let movedSince = Set(["s88", "s89"])  // the 1-row chunks
        for id in ended { _ = try store.write { tx throws(StoreError) in try tx.endSession(id: id, at: Fixtures.t0) } }
        let since = SessionTouch(sessionId: "s88", at: later, ifUnusedSince: Fixtures.t0)
        _ = try store.write { tx throws(StoreError) in try tx.touch([since, SessionTouch(sessionId: "s89", at: later, ifUnusedSince: Fixtures.t0)]) }
        let touches = ids.map { SessionTouch(sessionId: $0, at: later.adding(seconds: 60), ifUnusedSince: Fixtures.t0) }
        #expect(SQLRowChunks.chunks(touches).map(\.count) == [64, 16, 4, 4, 1, 1])
        #expect(try store.write { tx throws(StoreError) in try tx.touch(touches) } == 90 - ended.count - movedSince.count)
        for id in ids {
            let expected = ended.contains(id) ? Fixtures.t0 : movedSince.contains(id) ? later : later.adding(seconds: 60)
            #expect(try store.session(tokenHash: "hash-\(id)")?.lastUsedAt == expected, "\(id)")
        }
    }
}
