import IssueCatalog

/// The engine's input after E3 (sandbox facts only where the policy accepts them) and E1
/// (descriptions of one purchase merged), as positions into a table of transactions in
/// subscription order: (environment, originalTransactionId, purchaseDate, transactionId).
///
/// Transactions are large values full of strings, so nothing is copied on the common path (no
/// duplicates): the table is the caller's array and only positions are sorted, after an O(n)
/// check that finds most inputs (a store's key order) sorted already.
struct AccountTransactions {
    let table: [Transaction]
    let order: [Int]

    init(_ transactions: [Transaction], policy: EntitlementPolicy) {
        var positions = transactions.indices.filter { policy.accepts(transactions[$0].environment) }
        Self.sort(&positions) { Self.keyPrecedes(transactions[$0], transactions[$1]) }
        let hasDuplicates = positions.indices.dropFirst().contains {
            Self.sameKey(transactions[positions[$0 - 1]], transactions[positions[$0]])
        }
        if hasDuplicates {  // E1, rare: merge copies of the duplicated descriptions
            table = TransactionMerge.mergeAll(positions.map { transactions[$0] })
            positions = Array(table.indices)
        } else {
            table = transactions
        }
        let table = self.table
        Self.sort(&positions) { Self.subscriptionPrecedes(table[$0], table[$1]) }
        order = positions
    }

    private static func sort(_ positions: inout [Int], by precedes: (Int, Int) -> Bool) {
        let sorted = positions.indices.dropFirst().allSatisfy { !precedes(positions[$0], positions[$0 - 1]) }
        if !sorted { positions.sort(by: precedes) }
    }

    /// E1's key order, production first (as `TransactionMerge.mergeAll`).
    private static func keyPrecedes(_ a: Transaction, _ b: Transaction) -> Bool {
        if a.environment != b.environment { return a.environment == .production }
        return a.transactionId < b.transactionId
    }

    private static func sameKey(_ a: Transaction, _ b: Transaction) -> Bool {
        a.environment == b.environment && a.transactionId == b.transactionId
    }

    /// Subscription order: each subscription one run, its transactions by purchase.
    private static func subscriptionPrecedes(_ a: Transaction, _ b: Transaction) -> Bool {
        if a.environment != b.environment { return a.environment == .production }
        if a.originalTransactionId != b.originalTransactionId { return a.originalTransactionId < b.originalTransactionId }
        if a.purchaseDate != b.purchaseDate { return a.purchaseDate < b.purchaseDate }
        return a.transactionId < b.transactionId
    }
}

extension EntitlementPolicy {
    func accepts(_ environment: AppStoreEnvironment) -> Bool { environment == .production || acceptSandbox }
}
