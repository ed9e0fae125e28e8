@testable import GatewayConfiguration
import IssueCatalog
import Synchronization
import Wire

/// A `GatewayClock` whose time only the test moves: token expiry, scheduled issues and E16 are
/// checked at instants the test chooses, never by waiting.
final class TestClock: GatewayClock {
    private let current: Mutex<Instant>

    init(_ start: Instant) { current = Mutex(start) }

    func now() -> Instant { current.withLock { $0 } }

    func set(_ instant: Instant) { current.withLock { $0 = instant } }

    func advance(seconds: Int64) { current.withLock { $0 = $0.adding(seconds: seconds) } }
}
