import Foundation
import Wire

/// The wall clock, for the runtime layers only: the pure modules take instants as arguments and
/// tests pass their own clocks wherever this is a default.
public enum SystemTime {
    @Sendable public static func now() -> Instant {
        Instant(millisecondsSinceEpoch: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }
}
