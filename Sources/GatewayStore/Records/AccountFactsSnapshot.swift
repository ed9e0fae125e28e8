import Entitle

/// An account's stored facts and their version, read from one snapshot: a cache keyed by
/// `version` never pairs facts with the version of another state.
public struct AccountFactsSnapshot: Sendable, Equatable {
    public var transactions: [Transaction]
    public var renewals: [RenewalInfo]
    public var version: Int64

    public init(transactions: [Transaction], renewals: [RenewalInfo], version: Int64) {
        self.transactions = transactions; self.renewals = renewals; self.version = version
    }
}
