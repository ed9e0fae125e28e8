import IssueCatalog

/// The engine's input after E3 (sandbox facts only where the policy accepts them) and E1
/// (descriptions of one purchase merged), as positions into a table of transactions in
/// subscription order: (environment, store, originalTransactionId, purchaseDate, transactionId).
///
/// Transactions are large values full of strings, so nothing is copied on the common path (no
/// duplicates): the table is the caller's array and only positions are sorted, after an O(n)
/// check that finds most inputs (a store's key order) sorted already.
struct AccountTransactions {
    let table: [Transaction]
    let order: [Int]

    init(_ transactions: [Transaction], policy: EntitlementPolicy) {
        // Borrowed through a buffer: reading a transaction from the array would copy it.
        var positions: [Int] = []
        let hasDuplicates = transactions.withUnsafeBufferPointer { t in
            positions = t.indices.filter { policy.accepts(t[$0].environment) }
            Self.sort(&positions) { Self.keyPrecedes(t, $0, $1) }
            return positions.indices.dropFirst().contains { Self.sameKey(t, positions[$0 - 1], positions[$0]) }
        }
        if hasDuplicates {  // E1, rare: merge copies of the duplicated descriptions
            table = TransactionMerge.mergeAll(positions.map { transactions[$0] })
            positions = Array(table.indices)
        } else {
            table = transactions
        }
        table.withUnsafeBufferPointer { t in Self.sort(&positions) { Self.subscriptionPrecedes(t, $0, $1) } }
        order = positions
    }

    private static func sort(_ positions: inout [Int], by precedes: (Int, Int) -> Bool) {
        let sorted = positions.indices.dropFirst().allSatisfy { !precedes(positions[$0], positions[$0 - 1]) }
        if !sorted { positions.sort(by: precedes) }
    }

    /// E1's key order, production first (as `TransactionMerge.mergeAll`).
    private static func keyPrecedes(_ t: Table, _ a: Int, _ b: Int) -> Bool {
        if t[a].environment != t[b].environment { return t[a].environment == .production }
        if t[a].store != t[b].store { return t[a].store < t[b].store }
        return t[a].transactionId < t[b].transactionId
    }

    private static func sameKey(_ t: Table, _ a: Int, _ b: Int) -> Bool {
        t[a].environment == t[b].environment && t[a].store == t[b].store && t[a].transactionId == t[b].transactionId
    }

    /// Subscription order: each subscription one run, its transactions by purchase.
    private static func subscriptionPrecedes(_ t: Table, _ a: Int, _ b: Int) -> Bool {
        if t[a].environment != t[b].environment { return t[a].environment == .production }
        if t[a].store != t[b].store { return t[a].store < t[b].store }
        if t[a].originalTransactionId != t[b].originalTransactionId {
            return t[a].originalTransactionId < t[b].originalTransactionId
        }
        if t[a].purchaseDate != t[b].purchaseDate { return t[a].purchaseDate < t[b].purchaseDate }
        return t[a].transactionId < t[b].transactionId
    }

    /// Transactions compared in place through a buffer, never copied out of it.
    private typealias Table = UnsafeBufferPointer<Transaction>
}

extension EntitlementPolicy {
    func accepts(_ environment: StoreEnvironment) -> Bool { environment == .production || acceptSandbox }
}
