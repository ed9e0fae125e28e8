import Foundation
import Wire

/// A `Retry-After` field an outside service sent with its 429 or 503 (RFC 9110 §10.2.3): either
/// delay-seconds or an HTTP-date. Apple's Server API sends neither (a UNIX time in milliseconds)
/// and is read by its own client.
public enum RetryAfterField {
    /// The wait the field names, in whole seconds from `now` (an HTTP-date rounded up; one already
    /// past is 0); nil when there is no field or it is neither form, so the client's own backoff
    /// applies.
    public static func seconds(_ value: String?, now: Instant) -> Int? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ (48...57).contains($0) }) { return Int(text) ?? Int.max }
        guard let date = HTTPDate.parse(text, now: now) else { return nil }
        let milliseconds = date.millisecondsSinceEpoch - now.millisecondsSinceEpoch
        return milliseconds > 0 ? Int(clamping: (milliseconds + 999) / 1000) : 0
    }
}
