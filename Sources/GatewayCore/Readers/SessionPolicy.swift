import Wire

/// E34's limits on sessions: how many live sessions an account may have
/// (`ISSUE_GATEWAY_DEVICE_LIMIT`, 0 for none) and how long an unused one lives
/// (`ISSUE_GATEWAY_SESSION_IDLE_DAYS`).
package struct SessionPolicy: Sendable, Equatable {
    package var deviceLimit: Int
    package var idleDays: Int

    /// E34: a request is not a write: `lastUsedAt` moves at most once per this.
    package static let touchIntervalMilliseconds: Int64 = 3_600_000
    package static let standard = SessionPolicy(deviceLimit: 0, idleDays: 90)

    package init(deviceLimit: Int, idleDays: Int) {
        self.deviceLimit = max(0, deviceLimit); self.idleDays = max(1, idleDays)
    }

    /// Sessions last used before this instant have ended (E34).
    package func idleCutoff(now: Instant) -> Instant {
        now.adding(milliseconds: -Int64(idleDays) * 86_400_000)
    }

    /// Whether a session last used at `lastUsedAt` is due for its hourly `lastUsedAt` move.
    package func isTouchDue(lastUsedAt: Instant, now: Instant) -> Bool {
        now.millisecondsSinceEpoch - lastUsedAt.millisecondsSinceEpoch >= Self.touchIntervalMilliseconds
    }
}
