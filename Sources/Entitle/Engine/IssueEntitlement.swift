import IssueCatalog

/// One issue as one account sees it: entitled or not, and why (E20). An entitled issue lists
/// every reason that entitles it; a refused one holds exactly one, the nearest.
public struct IssueEntitlement: Hashable, Sendable {
    public let issue: Issue
    public let entitled: Bool
    public let reasons: [EntitlementReason]

    public init(issue: Issue, reasons: [EntitlementReason]) {
        self.issue = issue
        self.reasons = reasons
        self.entitled = reasons.contains(where: \.entitles)
    }
}
