import AppStoreKit
import Foundation
import IssueCatalog
import Wire

/// "Now" for the gateway. The pure modules never read a clock; the executable reads this one, and
/// tests substitute their own.
protocol GatewayClock: Sendable {
    func now() -> Instant
}

struct SystemClock: GatewayClock {
    func now() -> Instant { SystemTime.now() }
}
