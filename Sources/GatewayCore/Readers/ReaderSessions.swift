import GatewayStore
import Wire

/// E34: an account's live sessions, and ending one (by the account, a service or admin key, or
/// the session itself signing out). An ended session's token stops resolving here at once and on
/// every other process when its change feed brings the ending.
package struct ReaderSessions: Sendable {
    private let store: any GatewayStore
    private let clock: any GatewayClock
    private let authenticator: Authenticator
    private let policy: SessionPolicy
    private let touches: SessionTouches

    package init(store: any GatewayStore, clock: any GatewayClock, authenticator: Authenticator, policy: SessionPolicy,
                 touches: SessionTouches) {
        self.store = store; self.clock = clock; self.authenticator = authenticator; self.policy = policy
        self.touches = touches
    }

    /// The account's live sessions, oldest first, with the `lastUsedAt` moves noted so far.
    package func live(of accountId: String) throws(GatewayError) -> [Session] {
        touches.flush()
        let cutoff = policy.idleCutoff(now: clock.now())
        return try stored { () throws(StoreError) in try store.liveSessions(ofAccount: accountId, idleCutoff: cutoff) }
    }

    /// Ends a live session of the account; 404 when it is unknown, ended, or another account's.
    /// The ended session as it was.
    package func end(_ sessionId: String, of accountId: String) throws(GatewayError) -> Session {
        let now = clock.now()
        let cutoff = policy.idleCutoff(now: now)
        let ended = try stored { () throws(StoreError) -> Session? in
            try store.write { tx throws(StoreError) -> Session? in
                guard let session = try tx.session(id: sessionId), session.accountId == accountId,
                      session.isLive(idleCutoff: cutoff), try tx.endSession(id: sessionId, at: now) else { return nil }
                return session
            }
        }
        guard let ended else { throw .notFound("no live session \(sessionId) on account \(accountId)") }
        authenticator.forget(sessionId: sessionId)
        return ended
    }
}
