import Foundation

/// How long an answer may be kept, from its `Cache-Control` (RFC 9111 §5.2.2): `max-age=N`
/// seconds; `no-store` and `no-cache` keep nothing; nil when the field says neither.
public enum CacheControl {
    public static func maxAge(_ value: String?) -> Int64? {
        guard let value else { return nil }
        for directive in value.lowercased().split(separator: ",") {
            let part = directive.trimmingCharacters(in: .whitespaces)
            if part == "no-store" || part == "no-cache" { return 0 }
            if part.hasPrefix("max-age="), let seconds = Int64(part.dropFirst("max-age=".count)), seconds >= 0 { return seconds }
        }
        return nil
    }
}
