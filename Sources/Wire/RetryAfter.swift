/// `Retry-After` in seconds (RFC 9110 §10.2.3) on every 429 (RFC 6585 §4) and 503 (RFC 9110
/// §15.6.4): a client told how long to wait does not retry at once, all together. The value is
/// kept within `range` (http-api.md: at least 1, at most 3600), whoever computed it.
public enum RetryAfter {
    public static let range: ClosedRange<Int> = 1...3600
    /// The wait an answer gets when the code that refused named none: the server's own busy
    /// answers and the database's, which pass within a second or so.
    public static let fallbackSeconds = 1

    /// `seconds` kept within `range`.
    public static func clamped(_ seconds: Int) -> Int { min(max(seconds, range.lowerBound), range.upperBound) }

    /// The seconds from `now` until `instant` (Apple's 429 names a UNIX time in ms), rounded up and
    /// clamped; a time already past gives the minimum.
    public static func seconds(until instant: Instant, now: Instant) -> Int {
        let milliseconds = instant.millisecondsSinceEpoch, nowMilliseconds = now.millisecondsSinceEpoch
        let remaining = milliseconds - nowMilliseconds
        guard remaining > 0 else { return range.lowerBound }
        return clamped(Int(clamping: (remaining + 999) / 1000))
    }

    /// Whether an answer with `status` must carry the field.
    public static func isRequired(for status: Int) -> Bool { status == 429 || status == 503 }
}
