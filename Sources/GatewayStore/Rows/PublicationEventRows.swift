import IssueCatalog
import Wire

/// Publication events (one row per announced issue, the proof it fired, also across processes)
/// and push jobs (leased like the outbox's head, see `OutboxRows`). The baseline lives in `meta`.
extension RecordRows {
    /// Where the instant publication events were first recorded is kept (in `meta`).
    public static let publicationEventsBaselineKey = "publication_events_baseline"

    public static let pushJobColumns: SQL = """
        SELECT job_id, publication_id, issue_id, cursor, created_at, finished_at, lease_owner, lease_until FROM push_jobs
        """

    public static func pushJob(_ row: some StoredRow) -> PushJob {
        PushJob(jobId: row.int64(0), issue: IssueRef(publicationId: row.text(1), issueId: row.text(2)),
                cursor: row.optionalText(3), createdAt: row.instant(4), finishedAt: row.optionalInstant(5),
                leaseOwner: row.optionalText(6), leaseUntil: row.optionalInstant(7))
    }

    /// Issues not retracted and never announced (`i`: issues).
    static let unannouncedIssues: SQL = """
        FROM issues i WHERE i.retracted_at IS NULL AND NOT EXISTS (
            SELECT 1 FROM publication_events e WHERE e.publication_id = i.publication_id AND e.issue_id = i.id)
        """
}

extension SQLReading {
    public func publicationEventsBaseline() throws(StoreError) -> Instant? {
        try connection.queryFirst("SELECT value FROM meta WHERE key = \(RecordRows.publicationEventsBaselineKey)") {
            $0.instant(0)
        }
    }

    public func unannouncedIssues(publishedBy now: Instant, limit: Int) throws(StoreError) -> [IssueRef] {
        try connection.query("""
            SELECT i.publication_id, i.id \(RecordRows.unannouncedIssues) AND i.published_at <= \(now)
            ORDER BY i.published_at, i.publication_id, i.id LIMIT \(max(0, limit))
            """) { IssueRef(publicationId: $0.text(0), issueId: $0.text(1)) }
    }

    public func nextUnannouncedPublication(after now: Instant) throws(StoreError) -> Instant? {
        try connection.queryFirst("""
            SELECT MIN(i.published_at) \(RecordRows.unannouncedIssues) AND i.published_at > \(now)
            """) { $0.optionalInstant(0) } ?? nil
    }

    public func isAnnounced(_ ref: IssueRef) throws(StoreError) -> Bool {
        try connection.exists("SELECT 1 FROM publication_events WHERE \(RecordRows.issueKey(ref, idColumn: "issue_id"))")
    }

    public func openPushJobs(limit: Int) throws(StoreError) -> [PushJob] {
        try connection.query("\(RecordRows.pushJobColumns) WHERE finished_at IS NULL ORDER BY job_id LIMIT \(max(0, limit))",
                             RecordRows.pushJob)
    }

    /// A subscription's product ids and grants' publications are lists joined by
    /// `RecordRows.idSeparator`, compared by element (`SQLDialect.list(_:contains:)`).
    ///
    /// Each test is a scalar subquery (`(SELECT 1 … LIMIT 1) IS NOT NULL`), not `EXISTS`: under
    /// `OR`, PostgreSQL turns an `EXISTS` into a hashed subplan, built from a scan of every
    /// subscription (or grant) of every account for each page, so a fan-out to N devices cost
    /// N²/page. A scalar subquery is run per device through the accounts' indexes, on both backends.
    public func pushCandidates(_ audience: PushAudience, after: String?, limit: Int) throws(StoreError) -> [String] {
        let dialect = connection.dialect
        let publication: SQL = "\(audience.publicationId)"
        return try connection.query("""
            SELECT DISTINCT d.account_id FROM devices d
            WHERE d.account_id > \(after ?? "") AND (
                \(audience.everyone)
                OR (SELECT 1 FROM owners o JOIN subscription_facts s ON \(RecordRows.sameSubscription("s", "o"))
                    WHERE o.account_id = d.account_id AND \(dialect.list("s.product_ids", containsAnyOf: audience.productIds))
                    LIMIT 1) IS NOT NULL
                OR (SELECT 1 FROM grants g WHERE g.account_id = d.account_id AND g.revoked_at IS NULL
                    AND \(dialect.list("g.publications", contains: publication)) LIMIT 1) IS NOT NULL)
            ORDER BY d.account_id LIMIT \(max(0, limit))
            """) { $0.text(0) }
    }
}

extension SQLWriteTransaction {
    public func setPublicationEventsBaseline(_ instant: Instant) throws(StoreError) {
        try connection.run(.upsert(into: "meta", key: ["key": RecordRows.publicationEventsBaselineKey], set: ["value": instant]))
    }

    /// `ON CONFLICT DO NOTHING`: an issue another process announced meanwhile stays as it was.
    public func skipPublishedIssues(publishedBy now: Instant, at instant: Instant) throws(StoreError) {
        try connection.run("""
            INSERT INTO publication_events (publication_id, issue_id, published_at, fired_at, pushed)
            SELECT i.publication_id, i.id, i.published_at, \(instant), FALSE
            \(RecordRows.unannouncedIssues) AND i.published_at <= \(now) ON CONFLICT DO NOTHING
            """)
    }

    /// The row is the proof: of two processes announcing one issue, the second's insert changes
    /// no row (after waiting for the first to commit, or run again on a fresh snapshot after a
    /// serialization failure) and it announces nothing.
    public func insertPublicationEvent(_ ref: IssueRef, publishedAt: Instant, firedAt: Instant, pushed: Bool)
        throws(StoreError) -> Bool {
        try connection.run("""
            INSERT INTO publication_events (publication_id, issue_id, published_at, fired_at, pushed)
            VALUES (\(ref.publicationId), \(ref.issueId), \(publishedAt), \(firedAt), \(pushed))
            ON CONFLICT (publication_id, issue_id) DO NOTHING
            """) == 1
    }

    public func insert(_ job: PushJob) throws(StoreError) {
        try connection.run("""
            INSERT INTO push_jobs (publication_id, issue_id, cursor, created_at)
            VALUES (\(job.issue.publicationId), \(job.issue.issueId), \(job.cursor), \(job.createdAt))
            """)
    }

    public func updatePushJob(_ job: PushJob) throws(StoreError) {
        try connection.run("""
            UPDATE push_jobs SET cursor = \(job.cursor), finished_at = \(job.finishedAt), lease_owner = \(job.leaseOwner),
                lease_until = \(job.leaseUntil)
            WHERE job_id = \(job.jobId)
            """)
    }
}
