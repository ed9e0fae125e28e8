import Foundation
import Wire

/// `POST /simulator/failures`: Google failing on purpose, for the gateway's retries (E28), its 503
/// to Pub/Sub and its periods from snapshots (E25). `calls` API calls answer `status` (400–599,
/// default 503), carrying `retryAfter` as their `Retry-After` when given (seconds or an HTTP-date:
/// the wait the gateway passes on); `acknowledgements` acknowledgements answer 503; `refuseOrders`
/// makes the Orders API answer 403 `PERMISSION_DENIED` from now on (or, false, answer again). At
/// least one of them.
public struct FailureInjection: Sendable, Equatable {
    public var calls: Int
    public var status: Int
    public var acknowledgements: Int
    public var refuseOrders: Bool?
    public var retryAfter: String?

    /// More failures than any retry budget; a typo of a huge number is refused.
    static let maximumCount: Int64 = 1000
    /// Statuses Google answers when it fails: client errors a script may want, and server errors.
    static let statuses: ClosedRange<Int64> = 400...599

    public static func parse(_ body: [UInt8]) throws(ControlError) -> FailureInjection {
        let f = try ControlFields(body, known: ["calls", "status", "retryAfter", "acknowledgements", "refuseOrders"])
        let calls = try f.integer("calls", in: 0...maximumCount)
        let acknowledgements = try f.integer("acknowledgements", in: 0...maximumCount)
        let status = try f.integer("status", in: statuses)
        let retryAfter = try f.string("retryAfter")
        let refuseOrders = f.has("refuseOrders") ? try f.bool("refuseOrders") : nil
        guard calls != nil || acknowledgements != nil || refuseOrders != nil else {
            throw .badRequest("give calls (and status), acknowledgements or refuseOrders")
        }
        guard (status == nil && retryAfter == nil) || calls != nil else {
            throw .badRequest("status and retryAfter go with calls")
        }
        return FailureInjection(calls: Int(calls ?? 0), status: Int(status ?? 503), acknowledgements: Int(acknowledgements ?? 0),
                                refuseOrders: refuseOrders, retryAfter: retryAfter)
    }

    public func apply(to simulator: GooglePlaySimulator) {
        if calls > 0 { simulator.failNextCalls(calls, status: status, retryAfter: retryAfter) }
        if acknowledgements > 0 { simulator.failNextAcknowledgements(acknowledgements) }
        if let refuseOrders { simulator.refusesOrders = refuseOrders }
    }
}
