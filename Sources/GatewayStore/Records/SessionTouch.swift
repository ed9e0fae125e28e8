import Wire

/// E34: a session's `lastUsedAt` moved to `at`, if the session is not ended and was last used at
/// `ifUnusedSince` or before (moved at most once an hour, by whichever process comes first).
public struct SessionTouch: Hashable, Sendable {
    public var sessionId: String
    public var at: Instant
    public var ifUnusedSince: Instant

    public init(sessionId: String, at: Instant, ifUnusedSince: Instant) {
        self.sessionId = sessionId; self.at = at; self.ifUnusedSince = ifUnusedSince
    }
}
