import IssueCatalog

/// One issue as one account sees it: entitled or not, and why (E20). An entitled issue lists
/// every reason that entitles it; a refused one holds exactly one, the nearest.
/// Reasons are kept as a bit set so that long issue lists allocate nothing per issue.
public struct IssueEntitlement: Hashable, Sendable {
    public let issue: Issue
    private let reasonBits: UInt16

    public init(issue: Issue, reasons: [EntitlementReason]) {
        self.init(issue: issue, reasonBits: reasons.reduce(0) { $0 | Self.bit($1) })
    }

    init(issue: Issue, reasonBits: UInt16) {
        self.issue = issue
        self.reasonBits = reasonBits
    }

    /// In declaration order of `EntitlementReason`.
    public var reasons: [EntitlementReason] { EntitlementReason.allCases.filter { reasonBits & Self.bit($0) != 0 } }
    public var entitled: Bool { reasonBits & Self.entitlingBits != 0 }

    static func bit(_ reason: EntitlementReason) -> UInt16 {
        1 << UInt16(EntitlementReason.allCases.firstIndex(of: reason)!)
    }

    private static let entitlingBits = EntitlementReason.allCases.filter(\.entitles).reduce(UInt16(0)) { $0 | bit($1) }
}
