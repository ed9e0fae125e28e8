/// Issue positions of one publication that share reasons: a run of issues published inside an
/// active period (E12), or one issue with point reasons (E13–E15). `bits` as `IssueEntitlement`'s.
struct PositionSegment: Sendable {
    var range: Range<Int>
    var bits: UInt16
}
