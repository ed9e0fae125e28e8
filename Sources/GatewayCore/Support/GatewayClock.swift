import Foundation
import IssueCatalog
import OutboundHTTP
import Wire

/// "Now" for the gateway. The pure modules never read a clock; the executable reads this one, and
/// tests substitute their own.
public protocol GatewayClock: Sendable {
    func now() -> Instant
}

public struct SystemClock: GatewayClock {
    public init() {}

    public func now() -> Instant { SystemTime.now() }
}
