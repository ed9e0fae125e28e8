/// Rows a schema step rewrites in code, in the step's transaction, where SQL alone cannot say
/// the new form (`SharedMigration.converting`): written once over `SQLConnection`, so both
/// backends run the same conversion.
public enum SharedDataStep: Sendable {
    /// Every released `transactions` row packed into its subscription's `subscription_facts` row
    /// (`TransactionsPacking`, decision 118).
    case packTransactions

    public func run<C: SQLConnection>(on connection: C) throws(StoreError) {
        switch self {
        case .packTransactions: try TransactionsPacking.run(on: connection)
        }
    }
}
