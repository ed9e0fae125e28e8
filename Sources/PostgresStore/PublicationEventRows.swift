import GatewayStore
import IssueCatalog
import Wire

/// Publication events (one row per announced issue, the proof it fired, also across processes)
/// and push jobs (read with `RecordRows.pushJob`; leased like the outbox's head, see `OutboxRows`).
/// The baseline lives in `meta`, as in the SQLite store.
extension PostgresReading {
    func publicationEventsBaseline() throws(StoreError) -> Instant? {
        try connection.queryFirst("SELECT value FROM meta WHERE key = $1", [.text(RecordRows.publicationEventsBaselineKey)]) {
            $0.instant(0)
        }
    }

    func unannouncedIssues(publishedBy now: Instant, limit: Int) throws(StoreError) -> [IssueRef] {
        try connection.query("SELECT i.publication_id, i.id " + RecordRows.unannouncedIssues
                             + " AND i.published_at <= $1 ORDER BY i.published_at, i.publication_id, i.id LIMIT $2",
                             [.instant(now), .optional(max(0, limit))]) {
            IssueRef(publicationId: $0.text(0), issueId: $0.text(1))
        }
    }

    func nextUnannouncedPublication(after now: Instant) throws(StoreError) -> Instant? {
        try connection.queryFirst("SELECT MIN(i.published_at) " + RecordRows.unannouncedIssues + " AND i.published_at > $1",
                                  [.instant(now)]) { $0.optionalInstant(0) } ?? nil
    }

    func isAnnounced(_ ref: IssueRef) throws(StoreError) -> Bool {
        try connection.queryFirst("SELECT 1 FROM publication_events WHERE publication_id = $1 AND issue_id = $2",
                                  [.text(ref.publicationId), .text(ref.issueId)]) { _ in true } ?? false
    }

    func openPushJobs(limit: Int) throws(StoreError) -> [PushJob] {
        try connection.query(RecordRows.pushJobColumns + " WHERE finished_at IS NULL ORDER BY job_id LIMIT $1",
                             [.optional(max(0, limit))], RecordRows.pushJob)
    }

    /// Product ids and grants' publications are lists joined by `RecordRows.idSeparator`: split
    /// into arrays and compared by element (ids never hold the separator).
    func pushCandidates(_ audience: PushAudience, after: String?, limit: Int) throws(StoreError) -> [String] {
        try connection.query("""
            SELECT DISTINCT d.account_id FROM devices d
            WHERE d.account_id > $1 AND (
                $2
                OR EXISTS (SELECT 1 FROM owners o JOIN transactions t
                               ON t.environment = o.environment AND t.original_transaction_id = o.original_transaction_id
                           WHERE o.account_id = d.account_id AND t.product_id = ANY (string_to_array($3, $5)))
                OR EXISTS (SELECT 1 FROM grants g WHERE g.account_id = d.account_id AND g.revoked_at IS NULL
                           AND $4 = ANY (string_to_array(g.publications, $5))))
            ORDER BY d.account_id LIMIT $6
            """, [.text(after ?? ""), .boolean(audience.everyone), .text(RecordRows.joinIds(audience.productIds)),
                  .text(audience.publicationId), .text(String(RecordRows.idSeparator)), .optional(max(0, limit))]) {
            $0.text(0)
        }
    }
}

extension PostgresWriteTransaction {
    func setPublicationEventsBaseline(_ instant: Instant) throws(StoreError) {
        try connection.run("INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                           [.text(RecordRows.publicationEventsBaselineKey), .instant(instant)])
    }

    /// `ON CONFLICT DO NOTHING`: an issue another process announced meanwhile stays as it was.
    func skipPublishedIssues(publishedBy now: Instant, at instant: Instant) throws(StoreError) {
        try connection.run("""
            INSERT INTO publication_events (publication_id, issue_id, published_at, fired_at, pushed)
            SELECT i.publication_id, i.id, i.published_at, $1, false 
            """ + RecordRows.unannouncedIssues + " AND i.published_at <= $2 ON CONFLICT DO NOTHING",
            [.instant(instant), .instant(now)])
    }

    /// The row is the proof: of two processes announcing one issue, the second's insert changes
    /// no row (after waiting for the first to commit, or run again on a fresh snapshot after a
    /// serialization failure) and it announces nothing.
    func insertPublicationEvent(_ ref: IssueRef, publishedAt: Instant, firedAt: Instant, pushed: Bool) throws(StoreError) -> Bool {
        try connection.run("""
            INSERT INTO publication_events (publication_id, issue_id, published_at, fired_at, pushed) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (publication_id, issue_id) DO NOTHING
            """, [.text(ref.publicationId), .text(ref.issueId), .instant(publishedAt), .instant(firedAt), .boolean(pushed)]) == 1
    }

    func insert(_ job: PushJob) throws(StoreError) {
        try connection.run("INSERT INTO push_jobs (publication_id, issue_id, cursor, created_at) VALUES ($1, $2, $3, $4)",
                           [.text(job.issue.publicationId), .text(job.issue.issueId), .optional(job.cursor),
                            .instant(job.createdAt)])
    }

    func updatePushJob(_ job: PushJob) throws(StoreError) {
        try connection.run("""
            UPDATE push_jobs SET cursor = $1, finished_at = $2, lease_owner = $3, lease_until = $4 WHERE job_id = $5
            """, [.optional(job.cursor), .optional(job.finishedAt), .optional(job.leaseOwner), .optional(job.leaseUntil),
                  .integer(job.jobId)])
    }
}
