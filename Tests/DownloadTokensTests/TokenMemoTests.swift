import DownloadTokens
import IssueCatalog
import Synchronization
import Testing
import Wire

/// The edge check through a memo of verified tokens decides exactly as without one: the time
/// window and the path are checked on every request, and only verified tokens are remembered.
@Suite struct TokenMemoTests {
    typealias F = TokenFixture

    final class CountingMemo: VerifiedTokenMemo {
        let entries = Mutex<[String: VerifiedDownloadToken]>([:])
        let lookups = Mutex(0)

        func verified(_ token: String) -> VerifiedDownloadToken? {
            lookups.withLock { $0 += 1 }
            return entries.withLock { $0[token] }
        }

        func remember(_ token: String, _ verified: VerifiedDownloadToken) { entries.withLock { $0[token] = verified } }
    }

    private func decide(_ token: String, path: String = F.path, now: Instant = F.now, memo: CountingMemo) -> EdgeDecision {
        EdgeCheck.decide(authorization: "Bearer \(token)", originalURI: path, originalMethod: "GET",
                         keys: F.keys, now: now, memo: memo)
    }

    @Test func aRememberedTokenStillExpiresAndStillNamesItsPaths() throws {
        let memo = CountingMemo()
        let token = try F.issue().token
        guard case .allow = decide(token, memo: memo) else { Issue.record("first check refused"); return }
        #expect(memo.entries.withLock { $0.count } == 1)
        guard case .allow = decide(token, memo: memo) else { Issue.record("remembered check refused"); return }
        #expect(decide(token, path: "/content/monthly/2012-03/issue.pdf", memo: memo) == .forbidden(.pathNotGranted))
        #expect(decide(token, now: F.now.adding(seconds: 300 + 31), memo: memo) == .unauthorized(.expired))
        #expect(decide(token, now: F.now.adding(seconds: -31), memo: memo) == .unauthorized(.notYetValid))
        #expect(memo.lookups.withLock { $0 } == 5)
    }

    @Test func refusedTokensAreNeverRemembered() throws {
        let memo = CountingMemo()
        let forged = try F.forge(secret: F.otherSecret)
        #expect(decide(forged, memo: memo) == .unauthorized(.signature))
        let expired = try F.forge(claims: F.claims(iat: "1799990000", nbf: "1799990000", exp: "1799990300"))
        #expect(decide(expired, memo: memo) == .unauthorized(.expired))
        #expect(memo.entries.withLock { $0.count } == 1, "the expired but genuine token is remembered; the forgery is not")
        #expect(memo.entries.withLock { $0[forged] } == nil)
    }
}
