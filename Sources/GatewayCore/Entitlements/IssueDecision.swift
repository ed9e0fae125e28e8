import Entitle

/// What a download of one issue is decided on (E16, E20): the issue as the reader sees it, entitled
/// or not and why, or nil when the reader cannot see it (unknown, scheduled or retracted).
package struct IssueDecision: Sendable {
    package let entitlement: IssueEntitlement?

    package init(entitlement: IssueEntitlement?) { self.entitlement = entitlement }
}
