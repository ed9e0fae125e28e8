@testable import GatewayConfiguration
import IssueCatalog
import Synchronization
import Wire

/// A `GatewayClock` whose time only the test moves: token expiry, scheduled issues and E16 are
/// checked at instants the test chooses, never by waiting.
package final class TestClock: GatewayClock {
    private let current: Mutex<Instant>

    package init(_ start: Instant) { current = Mutex(start) }

    package func now() -> Instant { current.withLock { $0 } }

    package func set(_ instant: Instant) { current.withLock { $0 = instant } }

    package func advance(seconds: Int64) { current.withLock { $0 = $0.adding(seconds: seconds) } }
}
