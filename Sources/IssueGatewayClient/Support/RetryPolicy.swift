import Foundation

/// When the client tries a call again by itself: only an idempotent call (`GET`, `PUT`,
/// `DELETE`; RFC 9110 §9.2.2) answered 429 or 503 with a `Retry-After` no longer than
/// ``maximumWait``, after waiting exactly that long, at most ``maximumRetries`` times. A `POST`
/// (a purchase, a sign-in, a download token) is never sent twice: its error reaches the app with
/// ``IssueGatewayError/retryAfter`` set.
public struct RetryPolicy: Sendable {
    /// Tries after the first; `0` never retries.
    public var maximumRetries: Int
    /// The longest `Retry-After`, in seconds, the client waits out by itself; a longer one is
    /// thrown at once.
    public var maximumWait: TimeInterval
    /// How the client waits; tests may record the waits instead.
    public var sleep: @Sendable (TimeInterval) async throws -> Void

    /// Makes a policy.
    public init(maximumRetries: Int = 2, maximumWait: TimeInterval = 30,
                sleep: @escaping @Sendable (TimeInterval) async throws -> Void = RetryPolicy.taskSleep) {
        self.maximumRetries = maximumRetries
        self.maximumWait = maximumWait
        self.sleep = sleep
    }

    /// Two retries, waits up to 30 seconds.
    public static let standard = RetryPolicy()

    /// Never retries.
    public static let never = RetryPolicy(maximumRetries: 0)

    /// Waits with `Task.sleep`, cancellable.
    public static let taskSleep: @Sendable (TimeInterval) async throws -> Void = { seconds in
        try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
    }

    /// Whether a call with `method` may be sent again (RFC 9110 §9.2.2).
    static func isIdempotent(_ method: String) -> Bool {
        ["GET", "HEAD", "PUT", "DELETE"].contains(method)
    }
}

/// `Retry-After` (RFC 9110 §10.2.3): delay-seconds, or an HTTP-date turned into seconds from `now`.
enum RetryAfter {
    static func seconds(_ value: String?, now: Date = Date()) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value), seconds >= 0 { return TimeInterval(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = formatter.date(from: value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
