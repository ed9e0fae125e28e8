import Entitle

/// E37: keeps `subscriber_intervals` derived from the facts of the accounts marked due: the
/// intervals of every subscription an account owns, computed again (decision 89). A subscription
/// that left the account is left to its new owner's derivation, or kept as it was when nobody
/// owns it now (E35: a deleted reader's store subscriptions stay in the series).
public struct SubscriberIntervalsUpkeep: FactsUpkeeping {
    public init() {}

    public func prepare(_ accounts: [StoredAccountFacts], reading tx: any ReadTransaction) throws(StoreError) -> any PreparedUpkeep {
        Prepared(computed: try tx.subscriberIntervals(of: accounts.map { (accountId: $0.accountId, facts: $0.facts) }))
    }

    private struct Prepared: PreparedUpkeep {
        let computed: [DerivedSubscriberIntervals]

        func write(only accountIds: Set<String>?, in tx: any WriteTransaction) throws(StoreError) {
            try tx.replaceSubscriberIntervals(accountIds.map { ids in computed.filter { ids.contains($0.accountId) } } ?? computed)
        }
    }
}
