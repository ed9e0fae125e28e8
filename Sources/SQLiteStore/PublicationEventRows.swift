import GatewayStore
import IssueCatalog
import Wire

/// Publication events (one row per announced issue, the proof it fired) and push jobs (read with
/// `RecordRows.pushJob`).
extension SQLiteReading {
    func publicationEventsBaseline() throws(StoreError) -> Instant? {
        try connection.queryFirst("SELECT value FROM meta WHERE key = ?", [.text(RecordRows.publicationEventsBaselineKey)]) {
            $0.instant(0)
        }
    }

    func unannouncedIssues(publishedBy now: Instant, limit: Int) throws(StoreError) -> [IssueRef] {
        try connection.query("SELECT i.publication_id, i.id " + RecordRows.unannouncedIssues
                             + " AND i.published_at <= ? ORDER BY i.published_at, i.publication_id, i.id LIMIT ?",
                             [.integer(now.millisecondsSinceEpoch), .integer(Int64(limit))]) {
            IssueRef(publicationId: $0.text(0), issueId: $0.text(1))
        }
    }

    func nextUnannouncedPublication(after now: Instant) throws(StoreError) -> Instant? {
        try connection.queryFirst("SELECT MIN(i.published_at) " + RecordRows.unannouncedIssues + " AND i.published_at > ?",
                                  [.integer(now.millisecondsSinceEpoch)]) { $0.optionalInstant(0) } ?? nil
    }

    func isAnnounced(_ ref: IssueRef) throws(StoreError) -> Bool {
        try connection.queryFirst("SELECT 1 FROM publication_events WHERE publication_id = ? AND issue_id = ?",
                                  [.text(ref.publicationId), .text(ref.issueId)]) { _ in true } ?? false
    }

    func openPushJobs(limit: Int) throws(StoreError) -> [PushJob] {
        try connection.query(RecordRows.pushJobColumns + " WHERE finished_at IS NULL ORDER BY job_id LIMIT ?",
                             [.integer(Int64(limit))], RecordRows.pushJob)
    }

    func pushCandidates(_ audience: PushAudience, after: String?, limit: Int) throws(StoreError) -> [String] {
        // Ids are [A-Za-z0-9._-]: never a comma, so ",a,b," lists match with instr.
        let products = "," + audience.productIds.joined(separator: ",") + ","
        return try connection.query("""
            SELECT DISTINCT d.account_id FROM devices d
            WHERE d.account_id > ? AND (
                ? = 1
                OR EXISTS (SELECT 1 FROM owners o JOIN transactions t
                               ON t.environment = o.environment AND t.original_transaction_id = o.original_transaction_id
                           WHERE o.account_id = d.account_id AND instr(?, ',' || t.product_id || ',') > 0)
                OR EXISTS (SELECT 1 FROM grants g WHERE g.account_id = d.account_id AND g.revoked_at IS NULL
                           AND instr(',' || g.publications || ',', ?) > 0))
            ORDER BY d.account_id LIMIT ?
            """, [.text(after ?? ""), .bool(audience.everyone), .text(products), .text("," + audience.publicationId + ","),
                  .integer(Int64(limit))]) { $0.text(0) }
    }
}

extension SQLiteWriteTransaction {
    func setPublicationEventsBaseline(_ instant: Instant) throws(StoreError) {
        try connection.run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                           [.text(RecordRows.publicationEventsBaselineKey), .integer(instant.millisecondsSinceEpoch)])
    }

    func skipPublishedIssues(publishedBy now: Instant, at instant: Instant) throws(StoreError) {
        try connection.run("""
            INSERT INTO publication_events (publication_id, issue_id, published_at, fired_at, pushed)
            SELECT i.publication_id, i.id, i.published_at, ?, 0 
            """ + RecordRows.unannouncedIssues + " AND i.published_at <= ?",
            [.integer(instant.millisecondsSinceEpoch), .integer(now.millisecondsSinceEpoch)])
    }

    func insertPublicationEvent(_ ref: IssueRef, publishedAt: Instant, firedAt: Instant, pushed: Bool) throws(StoreError) -> Bool {
        try connection.run("""
            INSERT INTO publication_events (publication_id, issue_id, published_at, fired_at, pushed) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (publication_id, issue_id) DO NOTHING
            """, [.text(ref.publicationId), .text(ref.issueId), .integer(publishedAt.millisecondsSinceEpoch),
                  .integer(firedAt.millisecondsSinceEpoch), .bool(pushed)]) > 0
    }

    func insert(_ job: PushJob) throws(StoreError) {
        try connection.run("INSERT INTO push_jobs (publication_id, issue_id, cursor, created_at) VALUES (?, ?, ?, ?)",
                           [.text(job.issue.publicationId), .text(job.issue.issueId), .optional(job.cursor),
                            .integer(job.createdAt.millisecondsSinceEpoch)])
    }

    func updatePushJob(_ job: PushJob) throws(StoreError) {
        try connection.run("""
            UPDATE push_jobs SET cursor = ?, finished_at = ?, lease_owner = ?, lease_until = ? WHERE job_id = ?
            """, [.optional(job.cursor), .optional(job.finishedAt?.millisecondsSinceEpoch), .optional(job.leaseOwner),
                  .optional(job.leaseUntil?.millisecondsSinceEpoch), .integer(job.jobId)])
    }
}
