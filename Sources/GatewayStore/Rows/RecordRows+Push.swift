import IssueCatalog
import Wire

/// Push rows, for every backend: reader devices, the webhook outbox, push jobs; and the query
/// pieces both backends share.
extension RecordRows {
    // MARK: Devices

    public static let deviceColumns = "SELECT account_id, apns_token, environment, platform, registered_at FROM devices"

    public static func device(_ row: some StoredRow) -> Device {
        Device(accountId: row.text(0), apnsToken: row.text(1),
               environment: PushEnvironment(rawValue: row.text(2)) ?? .production, platform: row.text(3),
               registeredAt: row.instant(4))
    }

    // MARK: Webhook outbox

    public static let outboxColumns = """
        SELECT seq, event_id, kind, account_id, body, created_at, attempts, next_attempt_at, lease_owner, lease_until
        FROM outbox
        """

    public static func outboxEvent(_ row: some StoredRow) -> OutboxEvent {
        OutboxEvent(seq: row.int64(0), eventId: row.text(1), kind: WebhookEventKind(rawValue: row.text(2)) ?? .entitlementChanged,
                    accountId: row.optionalText(3), data: row.text(4), createdAt: row.instant(5), attempts: row.int(6),
                    nextAttemptAt: row.instant(7), leaseOwner: row.optionalText(8), leaseUntil: row.optionalInstant(9))
    }

    // MARK: Publication events and push jobs

    /// Where the instant publication events were first recorded is kept (in `meta`).
    public static let publicationEventsBaselineKey = "publication_events_baseline"

    public static let pushJobColumns = """
        SELECT job_id, publication_id, issue_id, cursor, created_at, finished_at, lease_owner, lease_until FROM push_jobs
        """

    public static func pushJob(_ row: some StoredRow) -> PushJob {
        PushJob(jobId: row.int64(0), issue: IssueRef(publicationId: row.text(1), issueId: row.text(2)),
                cursor: row.optionalText(3), createdAt: row.instant(4), finishedAt: row.optionalInstant(5),
                leaseOwner: row.optionalText(6), leaseUntil: row.optionalInstant(7))
    }

    /// Issues not retracted and never announced (`i`: issues).
    public static let unannouncedIssues = """
        FROM issues i WHERE i.retracted_at IS NULL AND NOT EXISTS (
            SELECT 1 FROM publication_events e WHERE e.publication_id = i.publication_id AND e.issue_id = i.id)
        """
}
