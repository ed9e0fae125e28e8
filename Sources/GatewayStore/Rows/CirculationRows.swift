import Entitle
import IssueCatalog
import Wire

/// E36's `circulation_evidence` (the per-account rows an issue's circulation is answered from)
/// and `circulation_state` (the catalog and policy they were derived under).
extension RecordRows {
    static let evidenceColumns: SQL = """
        SELECT account_id, publication_id, kind, start_at, end_at, issue_id, basis, store, product_id, subscription_id,
               began_at FROM circulation_evidence
        """

    /// The length classes of `span` (decision 97): class k holds intervals lasting at most
    /// `evidenceSpanBounds[k]` (8, 32, 100, 370 and 800 days: trials, months, quarters, years),
    /// the last class the longer ones (open grants). Written into the migration that added the
    /// column: a change of these needs a step that classifies the rows again.
    static let evidenceSpanBounds: [Int64] = [8, 32, 100, 370, 800].map { $0 * 86_400_000 }

    /// The length class of `item` (0 for unlocks and single issues, which last no time).
    static func evidenceSpan(_ item: CirculationEvidence) -> Int {
        // `start >= end - bound`: never overflows for an open end (`Instant.distantFuture`).
        evidenceSpanBounds.firstIndex { item.start.millisecondsSinceEpoch >= item.end.millisecondsSinceEpoch - $0 }
            ?? evidenceSpanBounds.count
    }

    static func evidence(_ row: some StoredRow) throws(StoreError) -> (accountId: String, item: CirculationEvidence) {
        guard let kind = CirculationEvidence.Kind(rawValue: row.int(2)), let basis = CirculationBasis(rawValue: row.int(6)) else {
            throw row.corrupt("circulation evidence of account \(row.text(0))")
        }
        let store = try row.optionalText(7).map { (name) throws(StoreError) in
            guard let store = Store(rawValue: name) else { throw row.corrupt("store \(name) of account \(row.text(0))") }
            return store
        }
        return (row.text(0), CirculationEvidence(
            kind: kind, publicationId: row.text(1), start: row.instant(3), end: row.instant(4), issueId: row.text(5),
            basis: basis, store: store, productId: row.optionalText(8), subscriptionId: row.text(9), beganAt: row.instant(10)))
    }
}

extension SQLReading {
    /// The evidence that may entitle the issue of `window`, read from the index
    /// `circulation_evidence_by_window` alone: intervals holding its publication, one bounded
    /// range per length class (decision 97); stretches beginning before the next issue (E13);
    /// purchases or codes of it alone.
    public func circulationEvidence(publicationId: String, window: CirculationWindow) throws(StoreError)
        -> [(accountId: String, item: CirculationEvidence)] {
        let t = window.publishedAt, next = min(window.nextPublishedAt, window.asOf.adding(milliseconds: 1))
        let interval = CirculationEvidence.Kind.interval.rawValue, unlock = CirculationEvidence.Kind.unlock.rawValue
        let issue = CirculationEvidence.Kind.issue.rawValue
        var query = SQL()
        for span in 0...RecordRows.evidenceSpanBounds.count {
            let bounded: SQL = span < RecordRows.evidenceSpanBounds.count
                ? "AND end_at <= \(t.millisecondsSinceEpoch + RecordRows.evidenceSpanBounds[span])" : ""
            query.append("""
                \(RecordRows.evidenceColumns) WHERE publication_id = \(publicationId) AND kind = \(interval) AND issue_id = ''
                  AND span = \(span) AND end_at > \(t) \(bounded) AND start_at <= \(t)
                UNION ALL

                """)
        }
        query.append("""
            \(RecordRows.evidenceColumns) WHERE publication_id = \(publicationId) AND kind = \(unlock) AND issue_id = ''
              AND span = 0 AND end_at >= \(t) AND end_at < \(next)
            UNION ALL
            \(RecordRows.evidenceColumns) WHERE publication_id = \(publicationId) AND kind = \(issue)
              AND issue_id = \(window.issueId)
            """)
        return try connection.query(query) { row throws(StoreError) in try RecordRows.evidence(row) }
    }

    public func circulationEvidence(ofAccount accountId: String) throws(StoreError) -> [CirculationEvidence] {
        try connection.query("\(RecordRows.evidenceColumns) WHERE account_id = \(accountId)") {
            row throws(StoreError) in try RecordRows.evidence(row).item
        }
    }

    /// The evidence of each of `accountIds`, by account, a statement per `SQLRowChunks.idLists` list.
    func circulationEvidence(ofAccounts accountIds: [String]) throws(StoreError) -> [String: [CirculationEvidence]] {
        var evidence: [String: [CirculationEvidence]] = [:]
        for ids in SQLRowChunks.idLists(accountIds) {
            for (accountId, item) in try connection.query("\(RecordRows.evidenceColumns) WHERE account_id IN (\(ids))",
                                                          { row throws(StoreError) in try RecordRows.evidence(row) }) {
                evidence[accountId, default: []].append(item)
            }
        }
        return evidence
    }

    public func circulationFingerprint() throws(StoreError) -> String? {
        try connection.queryFirst("SELECT fingerprint FROM circulation_state WHERE id = 1") { $0.text(0) }
    }

    /// Account ids after `after` (nil: from the first), in id order, at most `limit`.
    public func accountIds(after: String?, limit: Int) throws(StoreError) -> [String] {
        try connection.query("SELECT id FROM accounts WHERE id > \(after ?? "") ORDER BY id LIMIT \(limit)") { $0.text(0) }
    }
}

extension SQLWriteTransaction {
    /// Makes the account's stored evidence `evidence` (distinct items), touching only the rows
    /// that differ: a renewal adds one row, a repeated fact none.
    public func replaceCirculationEvidence(ofAccount accountId: String, with evidence: [CirculationEvidence]) throws(StoreError) {
        try replaceCirculationEvidence([(accountId, evidence)])
    }

    /// The batch's stored evidence read in one statement (`circulationEvidence(ofAccounts:)`), the
    /// rows gone deleted one by one, the new ones written a chunk a statement (`SQLRowChunks`);
    /// none of these writes is waited for (`runLater`).
    public func replaceCirculationEvidence(_ accounts: [(accountId: String, evidence: [CirculationEvidence])])
        throws(StoreError) {
        let stored = try circulationEvidence(ofAccounts: accounts.map(\.accountId))
        var added: [(accountId: String, item: CirculationEvidence)] = []
        for (accountId, evidence) in accounts {
            let had = Set(stored[accountId] ?? []), wanted = Set(evidence)
            for gone in had.subtracting(wanted) {
                try connection.runLater("""
                    DELETE FROM circulation_evidence WHERE account_id = \(accountId) AND publication_id = \(gone.publicationId)
                      AND kind = \(gone.kind.rawValue) AND span = \(RecordRows.evidenceSpan(gone)) AND start_at = \(gone.start)
                      AND end_at = \(gone.end)
                      AND issue_id = \(gone.issueId) AND basis = \(gone.basis.rawValue) AND subscription_id = \(gone.subscriptionId)
                      AND began_at = \(gone.beganAt) AND COALESCE(store, '') = \(gone.store?.rawValue ?? "")
                      AND COALESCE(product_id, '') = \(gone.productId ?? "")
                    """)
            }
            added += wanted.subtracting(had).map { (accountId, $0) }
        }
        for chunk in SQLRowChunks.chunks(added) {
            let rows = SQLRowChunks.values(chunk) { row in
                let new = row.item
                return """
                    \(row.accountId), \(new.publicationId), \(new.kind.rawValue), \(new.start), \(new.end), \(new.issueId), \
                    \(new.basis.rawValue), \(new.store?.rawValue), \(new.productId), \(new.subscriptionId), \(new.beganAt), \
                    \(RecordRows.evidenceSpan(new))
                    """
            }
            try connection.runLater("""
                INSERT INTO circulation_evidence (account_id, publication_id, kind, start_at, end_at, issue_id, basis, store,
                                                  product_id, subscription_id, began_at, span)
                VALUES \(rows)
                """)
        }
    }

    /// Rows of accounts that no longer exist (an erased account leaves no reader behind, E35).
    public func deleteCirculationEvidenceOfMissingAccounts() throws(StoreError) {
        try connection.run("DELETE FROM circulation_evidence WHERE account_id NOT IN (SELECT id FROM accounts)")
    }

    public func setCirculationFingerprint(_ fingerprint: String) throws(StoreError) {
        try connection.run(.upsert(into: "circulation_state", key: ["id": 1], set: ["fingerprint": fingerprint]))
    }
}
