/// Everything the rules read about one account: its transactions and renewal infos from every
/// store, and its grants (E21, revoked ones included: the engine leaves them out, the
/// entitlements answer lists them). The one value that is stored, cached and evaluated.
public struct AccountFacts: Hashable, Sendable {
    public var transactions: [Transaction]
    public var renewals: [RenewalInfo]
    public var grants: [Grant]

    public init(transactions: [Transaction] = [], renewals: [RenewalInfo] = [], grants: [Grant] = []) {
        self.transactions = transactions; self.renewals = renewals; self.grants = grants
    }
}
