import Entitle

/// One account's facts and facts version as a single statement: the subscriptions it owns (each
/// one's transactions packed in one value, `PackedTransactions`), their
/// renewal infos and its grants (E1–E22's input) with the version they make, as the parts of one
/// `UNION ALL`. A single statement is a consistent snapshot on both backends, so the cold path
/// of a list (the facts of an account nothing kept) is one round trip with no transaction around
/// it, where four queries needed a transaction and six round trips on PostgreSQL.
///
/// Every part has its own columns, the others' typed NULLs (PostgreSQL resolves a `UNION`'s
/// column types pairwise, so an untyped NULL would be taken for text), and the sort columns all
/// share: each part comes in the order its own query gives (`transactions(ofAccount:)`,
/// `renewalInfos(ofAccount:)`, `grants(ofAccount:)`).
enum AccountFactsRows {
    /// Which part a row belongs to (column 0).
    enum Part: Int64 {
        case version = 0, transaction = 1, renewal = 2, grant = 3
    }

    /// The columns before the parts' own: the part, then the sort columns (environment, store,
    /// subscription, instant, id), then the facts version.
    static let versionColumn: Int32 = 6
    static let transactionColumns: Int32 = 7
    static let renewalColumns: Int32 = transactionColumns + Int32(transactionTypes.count)
    static let grantColumns: Int32 = renewalColumns + Int32(renewalTypes.count)

    /// The types of `RecordRows.subscriptionFactsColumns`, `renewalColumns` and `grantColumns`, in order.
    private static let transactionTypes: [Slot] = [.text, .text, .text, .bytea]
    private static let renewalTypes: [Slot] = [.text, .text, .text, .boolean, .text, .bigint, .boolean, .bigint, .bigint,
                                              .text, .bigint, .text, .bigint, .bigint, .text, .text]
    private static let grantTypes: [Slot] = [.text, .text, .text, .text, .text, .bigint, .bigint, .bigint, .text, .bigint,
                                            .text]

    private enum Slot: String {
        case text = "TEXT", bigint = "BIGINT", boolean = "BOOLEAN", bytea = "BYTEA"
        var null: String { "CAST(NULL AS \(rawValue))" }
    }

    /// A part's select list: `own` in its columns, typed NULLs in every other part's.
    private static func columns(version: String? = nil, transaction: [String]? = nil, renewal: [String]? = nil,
                                grant: [String]? = nil) -> String {
        func fill(_ values: [String]?, _ types: [Slot]) -> [String] { values ?? types.map(\.null) }
        return ([version ?? Slot.bigint.null] + fill(transaction, transactionTypes) + fill(renewal, renewalTypes)
                + fill(grant, grantTypes)).joined(separator: ", ")
    }

    private static let transactionSelect = ["s.store", "s.environment", "s.original_transaction_id", "s.facts"]
    private static let renewalSelect = [
        "r.environment", "r.original_transaction_id", "r.product_id", "r.auto_renew_status",
        "r.auto_renew_product_id", "r.expiration_intent", "r.is_in_billing_retry",
        "r.grace_period_expires_date", "r.price_consent_status", "r.source", "r.observed_at", "r.store",
        "r.paused_at", "r.resumes_at", "r.app_transaction_id", "r.offer_period",
    ]
    private static let grantSelect = [
        "g.grant_id", "g.account_id", "g.source", "g.external_id", "g.publications", "g.start", "g.end_at",
        "g.revoked_at", "g.note", "g.created_at", "g.issue_id",
    ]

    private static let noSort = "CAST(NULL AS TEXT), CAST(NULL AS TEXT), CAST(NULL AS TEXT), CAST(NULL AS BIGINT), CAST(NULL AS TEXT)"

    /// Each part's select list, built once.
    private static let versionPart = "\(Part.version.rawValue), \(noSort), \(columns(version: "a.facts_version"))"
    private static let transactionPart = """
        \(Part.transaction.rawValue), s.environment, s.store, s.original_transaction_id, CAST(NULL AS BIGINT), CAST(NULL AS TEXT), \
        \(columns(transaction: transactionSelect))
        """
    private static let renewalPart = """
        \(Part.renewal.rawValue), r.environment, r.store, r.original_transaction_id, CAST(NULL AS BIGINT), CAST(NULL AS TEXT), \
        \(columns(renewal: renewalSelect))
        """
    private static let grantPart = """
        \(Part.grant.rawValue), CAST(NULL AS TEXT), CAST(NULL AS TEXT), CAST(NULL AS TEXT), g.start, g.grant_id, \
        \(columns(grant: grantSelect))
        """

    static func query(_ accountId: String) -> SQL {
        """
        SELECT \(raw: versionPart) FROM accounts a WHERE a.id = \(accountId)
        UNION ALL
        SELECT \(raw: transactionPart)
        FROM subscription_facts s JOIN owners o ON \(RecordRows.sameSubscription("o", "s"))
        WHERE o.account_id = \(accountId)
        UNION ALL
        SELECT \(raw: renewalPart)
        FROM renewal_infos r JOIN owners o ON \(RecordRows.sameSubscription("o", "r"))
        WHERE o.account_id = \(accountId)
        UNION ALL
        SELECT \(raw: grantPart) FROM grants g WHERE g.account_id = \(accountId)
        ORDER BY 1, 2, 3, 4, 5, 6
        """
    }
}

/// A row read through its part's columns: column `n` of the part is column `offset + n` of the
/// statement, so the part's own mapping (`RecordRows.transaction`, …) reads it unchanged.
struct PartRow<Base: StoredRow>: StoredRow {
    let base: Base
    let offset: Int32

    func isNull(_ column: Int32) -> Bool { base.isNull(offset + column) }
    func text(_ column: Int32) -> String { base.text(offset + column) }
    func int64(_ column: Int32) -> Int64 { base.int64(offset + column) }
    func bool(_ column: Int32) -> Bool { base.bool(offset + column) }
    func bytes(_ column: Int32) -> [UInt8] { base.bytes(offset + column) }
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
        var facts = AccountFacts()
        var version: Int64 = 0
        _ = try connection.query(AccountFactsRows.query(accountId)) { row throws(StoreError) in
            switch AccountFactsRows.Part(rawValue: row.int64(0)) {
            case .version: version = row.int64(AccountFactsRows.versionColumn)
            case .transaction:
                facts.transactions += try RecordRows.subscriptionTransactions(row, from: AccountFactsRows.transactionColumns)
            case .renewal:
                facts.renewals.append(try RecordRows.renewalInfo(PartRow(base: row, offset: AccountFactsRows.renewalColumns)))
            case .grant: facts.grants.append(RecordRows.grant(PartRow(base: row, offset: AccountFactsRows.grantColumns)))
            case nil: throw row.corrupt("facts of \(accountId): unknown part")
            }
        }
        return VersionedFacts(facts: facts, version: version)
    }
}
