import Entitle
import IssueCatalog
import Wire

/// E37: one product's stored intervals as a series reads them, in subscription order, kept
/// compactly (a subscription's key once, as bytes; each row a kind and two instants) until the
/// lists of one store's products are merged by subscription (`tally(_:store:into:)`): a
/// subscription that changed product has rows in several lists. About 20 bytes a row and no
/// `String` per row (decision 99).
struct SubscriberIntervalList {
    /// Each subscription's key: its environment's place in `environments` (the order SQL gives
    /// their raw values, bytewise), then its original transaction id's bytes; so comparing keys'
    /// bytes orders them as the query's `ORDER BY environment, original_transaction_id` does
    /// (SQLite's BINARY, PostgreSQL's "C").
    private var keys: [UInt8] = []
    private var keyEnds: [Int] = []
    /// Where each subscription's rows end.
    private var rowEnds: [Int] = []
    private var kinds: [SubscriptionInterval.Kind] = []
    private var starts: [Int64] = [], ends: [Int64] = []
    /// The row being read (a column's bytes), reused.
    private var scratch: [UInt8] = []

    static let environments = StoreEnvironment.allCases.sorted { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) }
    private static let environmentBytes = environments.map { Array($0.rawValue.utf8) }
    private static let kindBytes = SubscriptionInterval.Kind.allCases.map { ($0, Array($0.rawValue.utf8)) }

    var subscriptions: Int { keyEnds.count }

    /// One row of `RecordRows.subscriberIntervals(of:)`: environment, original transaction id,
    /// account (non-renewing rows only), kind, start, end. A non-renewing purchase goes straight
    /// to `tally` (stacked per account there, E10); other rows are kept.
    mutating func append(_ row: some StoredRow, of product: StoreProductRef,
                         into tally: inout SubscriberSeries.Tally) throws(StoreError) {
        scratch.removeAll(keepingCapacity: true)
        row.appendUTF8(3, to: &scratch)
        guard let kind = Self.kindBytes.first(where: { $0.1 == scratch })?.0 else {
            throw row.corrupt("subscriber interval of \(row.text(1)): bad kind \(row.text(3))")
        }
        if kind == .nonRenewing {
            let id = row.text(1)
            let environment = try row.decode(StoreEnvironment.self, 0, of: id)
            tally.nonRenewing(SubscriptionKey(store: product.store, environment: environment, originalTransactionId: id),
                              product: product, purchasedAt: row.instant(4), accountId: row.text(2))
            return
        }
        scratch.removeAll(keepingCapacity: true)
        row.appendUTF8(0, to: &scratch)
        guard let environment = Self.environmentBytes.firstIndex(of: scratch) else {
            throw row.corrupt("subscriber interval of \(row.text(1)): bad environment \(row.text(0))")
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(UInt8(environment))
        row.appendUTF8(1, to: &scratch)
        if keyEnds.isEmpty || key(keyEnds.count - 1) != scratch[...] {
            if !keyEnds.isEmpty { rowEnds.append(kinds.count) }
            keys.append(contentsOf: scratch)
            keyEnds.append(keys.count)
        }
        kinds.append(kind)
        starts.append(row.int64(4))
        ends.append(row.int64(5))
    }

    /// Closes the last subscription's rows (after the last `append`).
    mutating func finish() {
        if !keyEnds.isEmpty { rowEnds.append(kinds.count) }
    }

    private func key(_ s: Int) -> ArraySlice<UInt8> { keys[(s > 0 ? keyEnds[s - 1] : 0)..<keyEnds[s]] }

    /// Gives `tally` every subscription of `lists` (one store's products, each finished), each
    /// once with its rows from every list, in key order.
    static func tally(_ lists: [SubscriberIntervalList], store: Store, into tally: inout SubscriberSeries.Tally) {
        var heads = [Int](repeating: 0, count: lists.count)
        while true {
            var next: ArraySlice<UInt8>?
            for (l, list) in lists.enumerated() where heads[l] < list.subscriptions {
                let key = list.key(heads[l])
                if next.map({ key.lexicographicallyPrecedes($0) }) ?? true { next = key }
            }
            guard let key = next, let environment = key.first else { return }
            tally.subscription(store: store, environment: environments[Int(environment)])
            for (l, list) in lists.enumerated() where heads[l] < list.subscriptions && list.key(heads[l]) == key {
                let s = heads[l]
                for r in (s > 0 ? list.rowEnds[s - 1] : 0)..<list.rowEnds[s] {
                    tally.interval(list.kinds[r], ActivePeriod(start: Instant(millisecondsSinceEpoch: list.starts[r]),
                                                               end: Instant(millisecondsSinceEpoch: list.ends[r])))
                }
                heads[l] += 1
            }
        }
    }
}
