import Foundation
import Wire

/// `POST /simulator/clock`: the simulator's clock set to an instant or moved forward, exactly one
/// of `set` (RFC 3339), `advanceDays`, `advanceSeconds`. `set` may move it back: the developer
/// owns the scenario.
public enum ClockChange: Sendable, Equatable {
    case set(Instant)
    case advance(seconds: Int64)

    /// Ten years either way is more than any scenario needs.
    static let maximumDays: Int64 = 3650

    public static func parse(_ body: [UInt8]) throws(ControlError) -> ClockChange {
        let f = try ControlFields(body, known: ["set", "advanceDays", "advanceSeconds"])
        let set = try f.instant("set")
        let days = try f.integer("advanceDays", in: 0...maximumDays)
        let seconds = try f.integer("advanceSeconds", in: 0...(maximumDays * 86_400))
        switch (set, days, seconds) {
        case (let instant?, nil, nil): return .set(instant)
        case (nil, let days?, nil): return .advance(seconds: days * 86_400)
        case (nil, nil, let seconds?): return .advance(seconds: seconds)
        default: throw .badRequest("give exactly one of set, advanceDays, advanceSeconds")
        }
    }

    public func apply(to simulator: GooglePlaySimulator) {
        switch self {
        case .set(let instant): simulator.setClock(instant)
        case .advance(let seconds): simulator.advance(seconds: seconds)
        }
    }
}
