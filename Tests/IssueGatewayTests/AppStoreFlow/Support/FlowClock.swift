import IssueCatalog
import Synchronization
@testable import IssueGateway

/// The gateway's clock in the flow tests: fixed until a test moves it.
final class FlowClock: GatewayClock {
    private let current: Mutex<Instant>
    init(_ start: Instant) { current = Mutex(start) }
    func now() -> Instant { current.withLock { $0 } }
    func set(_ instant: Instant) { current.withLock { $0 = instant } }
}
