import IssueCatalog
import Wire

/// `issue.published` (http-api.md, pushes and webhooks): which issue came out and when.
enum IssuePublishedEvent {
    static func event(_ issue: Issue, at instant: Instant) -> OutboxEvent {
        var w = JSONWriter()
        w.object { w in
            w.field("publicationId", issue.publicationId)
            w.field("issueId", issue.id)
            w.field("title", issue.title)
            w.field("publishedAt", issue.publishedAt.rfc3339)
            w.field("free", issue.free)
        }
        return OutboxEvent(eventId: "issue.published/\(issue.publicationId)/\(issue.id)", kind: .issuePublished,
                           accountId: nil, data: String(decoding: w.bytes, as: UTF8.self), createdAt: instant)
    }
}
