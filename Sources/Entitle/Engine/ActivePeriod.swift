import IssueCatalog
import Wire

/// A half-open interval `[start, end)` of instants (entitlement-rules.md, Vocabulary).
/// `end == .distantFuture` never closes (E11).
public struct ActivePeriod: Hashable, Sendable, CustomStringConvertible {
    public var start: Instant
    public var end: Instant

    public init(start: Instant, end: Instant) { self.start = start; self.end = end }

    public func contains(_ t: Instant) -> Bool { start <= t && t < end }
    public var isEmpty: Bool { end <= start }
    public var description: String { "[\(start), \(end))" }
}
