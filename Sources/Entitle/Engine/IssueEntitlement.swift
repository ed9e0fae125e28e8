import IssueCatalog

/// One issue as one account sees it: entitled or not, and why (E20). An entitled issue lists
/// every reason that entitles it; a refused one holds exactly one, the nearest.
/// Lists are long, so an item is small: the issue is borrowed from the catalog's table (which it
/// keeps alive), and the reasons are a bit set.
public struct IssueEntitlement: Hashable, Sendable {
    private let table: IssueTable
    private let position: Int
    private let reasonBits: UInt16

    public init(issue: Issue, reasons: [EntitlementReason]) {
        self.init(table: IssueTable([issue]), position: 0, reasonBits: reasons.reduce(0) { $0 | Self.bit($1) })
    }

    /// `position` is an index of `table.issues`.
    init(table: IssueTable, position: Int, reasonBits: UInt16) {
        self.table = table
        self.position = position
        self.reasonBits = reasonBits
    }

    /// Read in place (no copy of the issue's strings) unless the caller keeps it.
    public var issue: Issue {
        _read { yield table.issues[position] }
    }

    /// The issue's index among its publication's issues as `CatalogSnapshot.issues(of:)` orders
    /// them, for callers that keep something per issue in that order.
    public var indexInPublication: Int { position - table.issues.startIndex }

    /// The reasons as a bit set (bit i: `EntitlementReason.allCases[i]`), for callers that render
    /// each combination once.
    public var reasonSet: UInt16 { reasonBits }

    /// In declaration order of `EntitlementReason`.
    public var reasons: [EntitlementReason] { EntitlementReason.allCases.filter { reasonBits & Self.bit($0) != 0 } }
    public var entitled: Bool { reasonBits & Self.entitlingBits != 0 }

    /// Equal when the issues and the reasons are, wherever the issues are kept.
    public static func == (a: IssueEntitlement, b: IssueEntitlement) -> Bool {
        guard a.reasonBits == b.reasonBits else { return false }
        return (a.table === b.table && a.position == b.position) || a.issue == b.issue
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(issue)
        hasher.combine(reasonBits)
    }

    static func bit(_ reason: EntitlementReason) -> UInt16 {
        1 << UInt16(EntitlementReason.allCases.firstIndex(of: reason)!)
    }

    static let entitlingBits = EntitlementReason.allCases.filter(\.entitles).reduce(UInt16(0)) { $0 | bit($1) }
}
