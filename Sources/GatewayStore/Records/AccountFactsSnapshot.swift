import Entitle

/// An account's stored facts and their version, read from one snapshot: a cache keyed by
/// `version` never pairs facts with the version of another state.
public struct AccountFactsSnapshot: Sendable, Equatable {
    public var transactions: [Transaction]
    public var renewals: [RenewalInfo]
    /// E21: revoked ones included (the engine leaves them out; the entitlements answer lists them).
    public var grants: [Grant]
    public var version: Int64

    public init(transactions: [Transaction], renewals: [RenewalInfo], grants: [Grant] = [], version: Int64) {
        self.transactions = transactions; self.renewals = renewals; self.grants = grants; self.version = version
    }
}
