import Foundation
import Wire

/// `POST /simulator/failures`: Google failing on purpose, for the gateway's retries (E28) and its
/// 503 to Pub/Sub. `calls` API calls answer `status` (429 or 5xx by default 503), and/or
/// `acknowledgements` acknowledgements answer 503; at least one of the two.
public struct FailureInjection: Sendable, Equatable {
    public var calls: Int
    public var status: Int
    public var acknowledgements: Int

    /// More failures than any retry budget; a typo of a huge number is refused.
    static let maximumCount: Int64 = 1000
    /// Statuses Google answers when it fails: client errors a script may want, and server errors.
    static let statuses: ClosedRange<Int64> = 400...599

    public static func parse(_ body: [UInt8]) throws(ControlError) -> FailureInjection {
        let f = try ControlFields(body, known: ["calls", "status", "acknowledgements"])
        let calls = try f.integer("calls", in: 0...maximumCount)
        let acknowledgements = try f.integer("acknowledgements", in: 0...maximumCount)
        let status = try f.integer("status", in: statuses)
        guard calls != nil || acknowledgements != nil else { throw .badRequest("give calls (and status) or acknowledgements") }
        guard status == nil || calls != nil else { throw .badRequest("status goes with calls") }
        return FailureInjection(calls: Int(calls ?? 0), status: Int(status ?? 503), acknowledgements: Int(acknowledgements ?? 0))
    }

    public func apply(to simulator: GooglePlaySimulator) {
        if calls > 0 { simulator.failNextCalls(calls, status: status) }
        if acknowledgements > 0 { simulator.failNextAcknowledgements(acknowledgements) }
    }
}
