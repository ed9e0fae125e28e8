import Entitle
import Synchronization

/// The gateway's `VerifiedTokenMemo` for `GET /v1/edge/verify`: bounded, shared by the event
/// loops. When full it starts over; tokens live minutes, so nothing of value is kept long.
final class TokenMemo: VerifiedTokenMemo {
    private let entries = Mutex<[String: VerifiedDownloadToken]>([:])
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    func verified(_ token: String) -> VerifiedDownloadToken? {
        entries.withLock { $0[token] }
    }

    func remember(_ token: String, _ verified: VerifiedDownloadToken) {
        entries.withLock { entries in
            if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
            entries[token] = verified
        }
    }
}
