import DownloadTokens
import Entitle
import Synchronization

/// The gateway's `VerifiedTokenMemo` for `GET /v1/edge/verify`: shared by the event loops, within
/// a byte budget (`CacheBudget`), least recently used evicted first. Tokens live minutes, so
/// nothing of value is kept long.
package final class TokenMemo: VerifiedTokenMemo {
    private let entries: Mutex<ByteBudgetLRU<String, VerifiedDownloadToken>>

    package init(budgetBytes: Int) { entries = Mutex(ByteBudgetLRU(budget: budgetBytes)) }

    package func verified(_ token: String) -> VerifiedDownloadToken? {
        entries.withLock { $0.value(for: token) }
    }

    package func remember(_ token: String, _ verified: VerifiedDownloadToken) {
        let claims = verified.claims
        let bytes = MemoryFootprint.string(token) + MemoryFootprint.string(verified.kid)
            + MemoryFootprint.strings([claims.issuer, claims.audience, claims.subject, claims.publication, claims.issue,
                                       claims.tokenID])
            + MemoryFootprint.array(claims.paths) + MemoryFootprint.strings(claims.paths)
        entries.withLock { _ = $0.insert(verified, for: token, bytes: bytes) }
    }

    package var stats: CacheStats { entries.withLock { $0.stats } }
}
