import Entitle

/// One account's facts and facts version as a single statement: the subscriptions it owns (each
/// one's transactions packed in one value, `PackedTransactions`), their
/// renewal infos and its grants (E1–E22's input) with the version they make, as the parts of one
/// `UNION ALL`. A single statement is a consistent snapshot on both backends, so the cold path
/// of a list (the facts of an account nothing kept) is one round trip with no transaction around
/// it, where four queries needed a transaction and six round trips on PostgreSQL.
///
/// Every row has the part (column 0), the five sort columns all parts share, then typed slots
/// the parts share: each part's own columns go into the slots of their type, in order, and the
/// rest are typed NULLs (PostgreSQL resolves a `UNION`'s column types pairwise, so an untyped
/// NULL would be taken for text). Shared slots keep the row 21 columns wide rather than the 38 of
/// one column set a part: PostgreSQL builds every part's projection for each call, and that
/// start-up was a fifth of its time in the surge (docs/benchmarks/surge.md). Each part comes in
/// the order its own query gives (`transactions(ofAccount:)`, `renewalInfos(ofAccount:)`,
/// `grants(ofAccount:)`). The batch form (`query(accountIds:)`, the reports' upkeep) puts the
/// account after the part and orders by it first, so many accounts' facts are one statement.
enum AccountFactsRows {
    /// Which part a row belongs to (column 0).
    enum Part: Int64 {
        case version = 0, transaction = 1, renewal = 2, grant = 3
    }

    private enum Slot: String {
        case text = "TEXT", bigint = "BIGINT", boolean = "BOOLEAN", bytea = "BYTEA"
        var null: String { "CAST(NULL AS \(rawValue))" }
    }

    /// Where a part's column comes from: one of the sort columns, or its own slot.
    private enum Source {
        case sort(Int32)
        case own(String, Slot)
    }

    /// The sort columns' types (environment, store, subscription, instant, id).
    private static let sortTypes: [Slot] = [.text, .text, .text, .bigint, .text]
    /// The shared slots after them: enough of each type for the widest part.
    private static let slotTypes: [Slot] = Array(repeating: .text, count: 6) + Array(repeating: .bigint, count: 6)
        + [.boolean, .boolean, .bytea]

    /// A part's select list and, for each of the part's own columns in its query's order, the
    /// statement column that holds it (what `PartRow` reads through).
    struct Layout {
        let select: String
        let columns: [Int32]
    }

    /// `account`: the batch form's account column (`query(accountIds:)`), after the part; the
    /// columns after it move one along.
    private static func layout(_ part: Part, account: String? = nil, sort: [String?], _ sources: [Source]) -> Layout {
        let lead: Int32 = account == nil ? 1 : 2
        let sortValues = zip(sort, sortTypes).map { $0 ?? $1.null }
        var slots = slotTypes.map(\.null)
        var taken = Set<Int>()
        var columns: [Int32] = []
        for source in sources {
            switch source {
            case .sort(let index):
                columns.append(lead + index)
            case .own(let expression, let type):
                guard let slot = slotTypes.indices.first(where: { slotTypes[$0] == type && !taken.contains($0) }) else {
                    preconditionFailure("no \(type.rawValue) slot left for \(expression): widen slotTypes")
                }
                taken.insert(slot)
                slots[slot] = expression
                columns.append(lead + Int32(sortTypes.count + slot))
            }
        }
        return Layout(select: (["\(part.rawValue)"] + (account.map { [$0] } ?? []) + sortValues + slots).joined(separator: ", "),
                      columns: columns)
    }

    /// The four parts' layouts: for one account, or with the account column (`batch`).
    struct Layouts {
        let version, transaction, renewal, grant: Layout

        init(batch: Bool) {
            // The facts version, and whether the account is a reader (E35: `account(id:)` finds no
            // deleted account).
            version = layout(.version, account: batch ? "a.id" : nil, sort: [nil, nil, nil, nil, nil],
                             [.own("a.facts_version", .bigint), .own("a.deleted_at IS NULL", .boolean)])
            // `RecordRows.subscriptionFactsColumns`: store, environment, subscription, packed facts.
            transaction = layout(.transaction, account: batch ? "o.account_id" : nil,
                                 sort: ["s.environment", "s.store", "s.original_transaction_id", nil, nil],
                                 [.sort(1), .sort(0), .sort(2), .own("s.facts", .bytea)])
            // `RecordRows.renewalColumns`, in their order.
            renewal = layout(.renewal, account: batch ? "o.account_id" : nil,
                             sort: ["r.environment", "r.store", "r.original_transaction_id", nil, nil], [
                .sort(0), .sort(2), .own("r.product_id", .text), .own("r.auto_renew_status", .boolean),
                .own("r.auto_renew_product_id", .text), .own("r.expiration_intent", .bigint),
                .own("r.is_in_billing_retry", .boolean), .own("r.grace_period_expires_date", .bigint),
                .own("r.price_consent_status", .bigint), .own("r.source", .text), .own("r.observed_at", .bigint), .sort(1),
                .own("r.paused_at", .bigint), .own("r.resumes_at", .bigint), .own("r.app_transaction_id", .text),
                .own("r.offer_period", .text),
            ])
            // `RecordRows.grantColumns`, in their order.
            grant = layout(.grant, account: batch ? "g.account_id" : nil, sort: [nil, nil, nil, "g.start", "g.grant_id"], [
                .sort(4), .own("g.account_id", .text), .own("g.source", .text), .own("g.external_id", .text),
                .own("g.publications", .text), .sort(3), .own("g.end_at", .bigint), .own("g.revoked_at", .bigint),
                .own("g.note", .text), .own("g.created_at", .bigint), .own("g.issue_id", .text),
            ])
        }
    }

    static let one = Layouts(batch: false)
    static let batch = Layouts(batch: true)

    static func query(_ accountId: String) -> SQL { query(one, accounts: "= \(accountId)", orderBy: "1, 2, 3, 4, 5, 6") }

    /// The facts of every account of `accountIds` (an `IN` list, `SQLRowChunks.idLists`), by
    /// account, each account's rows in `query`'s order.
    static func query(accountIds: SQL) -> SQL { query(batch, accounts: "IN (\(accountIds))", orderBy: "2, 1, 3, 4, 5, 6, 7") }

    private static func query(_ layouts: Layouts, accounts: SQL, orderBy: StaticString) -> SQL {
        """
        SELECT \(raw: layouts.version.select) FROM accounts a WHERE a.id \(accounts)
        UNION ALL
        SELECT \(raw: layouts.transaction.select)
        FROM subscription_facts s JOIN owners o ON \(RecordRows.sameSubscription("o", "s"))
        WHERE o.account_id \(accounts)
        UNION ALL
        SELECT \(raw: layouts.renewal.select)
        FROM renewal_infos r JOIN owners o ON \(RecordRows.sameSubscription("o", "r"))
        WHERE o.account_id \(accounts)
        UNION ALL
        SELECT \(raw: layouts.grant.select) FROM grants g WHERE g.account_id \(accounts)
        ORDER BY \(literal: orderBy)
        """
    }
}

/// A row read through its part's columns: column `n` of the part is statement column
/// `columns[n]`, so the part's own mapping (`RecordRows.renewalInfo`, …) reads it unchanged.
struct PartRow<Base: StoredRow>: StoredRow {
    let base: Base
    let columns: [Int32]

    init(_ base: Base, _ layout: AccountFactsRows.Layout) { self.base = base; columns = layout.columns }

    func isNull(_ column: Int32) -> Bool { base.isNull(columns[Int(column)]) }
    func text(_ column: Int32) -> String { base.text(columns[Int(column)]) }
    func int64(_ column: Int32) -> Int64 { base.int64(columns[Int(column)]) }
    func bool(_ column: Int32) -> Bool { base.bool(columns[Int(column)]) }
    func bytes(_ column: Int32) -> [UInt8] { base.bytes(columns[Int(column)]) }
    func corrupt(_ detail: String) -> StoreError { base.corrupt(detail) }
}

extension SQLReading {
    /// The account's facts and facts version. On PostgreSQL one statement (`AccountFactsRows`):
    /// each statement is a round trip there. On SQLite, which answers in process, the four
    /// queries in the caller's snapshot: the union's sorter of wide rows costs more instructions
    /// than four indexed statements (docs/benchmarks/coldpath.md).
    public func versionedFacts(ofAccount accountId: String) throws(StoreError) -> VersionedFacts {
        guard connection.dialect == .postgres else {
            return VersionedFacts(facts: try queriedFacts(ofAccount: accountId), version: try factsVersion(ofAccount: accountId))
        }
        let read = try unionFacts(ofAccount: accountId)
        return VersionedFacts(facts: read.facts, version: read.version)
    }

    /// The facts of each account and whether it is a reader, as the reports' upkeep reads them
    /// (decision 96): on PostgreSQL the union's batch form, one statement for up to 128 accounts,
    /// where `storedFacts` takes four round trips an account.
    public func upkeepFacts(ofAccounts accountIds: [String]) throws(StoreError) -> [StoredAccountFacts] {
        guard connection.dialect == .postgres else {
            return try accountIds.map { (id) throws(StoreError) in try storedFacts(ofAccount: id) }
        }
        var read: [String: UnionFacts] = [:]
        for ids in SQLRowChunks.idLists(accountIds) {
            _ = try connection.query(AccountFactsRows.query(accountIds: ids)) { row throws(StoreError) in
                let accountId = row.text(1)
                try read[accountId, default: UnionFacts()].add(row, AccountFactsRows.batch, of: accountId)
            }
        }
        return accountIds.map { id in
            let facts = read[id] ?? UnionFacts()
            return StoredAccountFacts(accountId: id, isReader: facts.isReader, facts: facts.facts)
        }
    }

    private func unionFacts(ofAccount accountId: String) throws(StoreError) -> UnionFacts {
        var read = UnionFacts()
        _ = try connection.query(AccountFactsRows.query(accountId)) { row throws(StoreError) in
            try read.add(row, AccountFactsRows.one, of: accountId)
        }
        return read
    }
}

/// One account's rows of the facts union, read.
private struct UnionFacts {
    var facts = AccountFacts()
    var version: Int64 = 0
    /// False until the account's version row says it is stored and not deleted.
    var isReader = false

    mutating func add(_ row: some StoredRow, _ layouts: AccountFactsRows.Layouts, of accountId: String) throws(StoreError) {
        switch AccountFactsRows.Part(rawValue: row.int64(0)) {
        case .version:
            let part = PartRow(row, layouts.version)
            (version, isReader) = (part.int64(0), part.bool(1))
        case .transaction:
            facts.transactions += try RecordRows.subscriptionTransactions(PartRow(row, layouts.transaction))
        case .renewal: facts.renewals.append(try RecordRows.renewalInfo(PartRow(row, layouts.renewal)))
        case .grant: facts.grants.append(RecordRows.grant(PartRow(row, layouts.grant)))
        case nil: throw row.corrupt("facts of \(accountId): unknown part")
        }
    }
}
