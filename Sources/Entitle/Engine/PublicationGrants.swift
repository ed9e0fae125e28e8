import IssueCatalog

/// What one account holds in one publication, gathered from every product that grants it,
/// before merging (entitlement-rules.md, Issues).
struct PublicationGrants {
    var service: [ActivePeriod] = []
    var grace: [ActivePeriod] = []
    var void: [ActivePeriod] = []
    var refundedAfterCut: [ActivePeriod] = []
    /// E21: unrevoked grants' intervals (merged into the active periods, reason `granted`).
    var granted: [ActivePeriod] = []
    /// E30: the covering institution's interval (merged like a grant, reason `institution`).
    var institution: [ActivePeriod] = []
    /// E22: positions of issues granted one by one (an access code's "one issue for good").
    var grantedIssues: [Int] = []
    /// E14: positions of issues bought one by one, and of those whose purchase was refunded (E6).
    var purchased: [Int] = []
    var refundedPurchases: [Int] = []

    mutating func add(_ interval: ProductInterval) {
        switch interval.kind {
        case .service: service.append(interval.period)
        case .grace: grace.append(interval.period)
        case .void: void.append(interval.period)
        case .refundedAfterCut: refundedAfterCut.append(interval.period)
        }
    }
}
