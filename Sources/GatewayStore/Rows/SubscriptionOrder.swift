import Entitle

extension RecordRows {
    /// `transactions`, grouped by subscription in the order wanted, with each subscription's
    /// transactions put in purchase date order, then transaction id compared byte-wise (as
    /// SQLite's `BINARY` and PostgreSQL's `"C"` collations compare the key columns): the order
    /// `ReadTransaction.transactions(ofAccount:)` documents. A subscription's rows come in the
    /// order they were stored, nearly always their purchase order already, so this insertion sort
    /// compares one purchase date a row (decision 113).
    static func inSubscriptionOrder(_ transactions: [Transaction]) -> [Transaction] {
        var ordered = transactions
        for i in ordered.indices.dropFirst() where precedes(ordered[i], ordered[i - 1]) {
            var j = i - 1
            while j > 0 && precedes(ordered[i], ordered[j - 1]) { j -= 1 }
            let moved = ordered.remove(at: i)
            ordered.insert(moved, at: j)
        }
        return ordered
    }

    /// True when `a` goes before `b` in the same subscription; never across subscriptions, whose
    /// order the query gave.
    private static func precedes(_ a: Transaction, _ b: Transaction) -> Bool {
        guard a.purchaseDate <= b.purchaseDate else { return false }
        guard a.originalTransactionId == b.originalTransactionId, a.store == b.store,
              a.environment == b.environment else { return false }
        return a.purchaseDate < b.purchaseDate
            || a.transactionId.utf8.lexicographicallyPrecedes(b.transactionId.utf8)
    }
}
