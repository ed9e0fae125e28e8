import IssueCatalog

/// One publication's issues, shared by reference: an `IssueEntitlement` points into it instead
/// of holding a copy of its issue, so that a list of thousands costs one reference per item, not
/// an issue's strings and assets each.
final class IssueTable: Sendable {
    let issues: ArraySlice<Issue>

    init(_ issues: ArraySlice<Issue>) { self.issues = issues }
}
