import Entitle
import Wire

/// E29's rows: print subscribers by (publication, customer number), and the lists received.
extension RecordRows {
    public static let subscriberColumns: SQL = """
        SELECT publication_id, customer_number, verification_hash, start, end_at, list_id, updated_at FROM print_subscribers
        """
    public static let importColumns: SQL = """
        SELECT list_id, publication_id, kind, received_at, finished_at, added, changed, ended, unchanged, rejected, refusal
        FROM subscriber_imports
        """

    public static func subscriber(_ row: some StoredRow) -> PrintSubscriber {
        PrintSubscriber(publicationId: row.text(0), customerNumber: row.text(1), verificationHash: row.text(2),
                        terms: PrintSubscriberTerms(start: row.instant(3), end: row.optionalInstant(4)),
                        listId: row.text(5), updatedAt: row.instant(6))
    }

    public static func subscriberImport(_ row: some StoredRow) throws(StoreError) -> SubscriberImport {
        var counts = SubscriberListCounts()
        counts.added = row.int(5); counts.changed = row.int(6); counts.ended = row.int(7); counts.unchanged = row.int(8)
        counts.rejectedBeyondKept = row.int(9)
        return SubscriberImport(listId: row.text(0), publicationId: row.text(1),
                                kind: try row.decode(SubscriberListKind.self, 2, of: row.text(0)),
                                receivedAt: row.instant(3), finishedAt: row.optionalInstant(4), counts: counts,
                                refusal: row.optionalText(10))
    }
}

extension SQLReading {
    public func subscriber(publicationId: String, customerNumber: String) throws(StoreError) -> PrintSubscriber? {
        try connection.queryFirst("""
            \(RecordRows.subscriberColumns) WHERE publication_id = \(publicationId) AND customer_number = \(customerNumber)
            """, RecordRows.subscriber)
    }

    /// Up to `limit` of the publication's subscribers no list `listId` named that have not ended by `instant`.
    public func subscribers(of publicationId: String, notInList listId: String, runningAt instant: Instant, limit: Int)
        throws(StoreError) -> [PrintSubscriber] {
        try connection.query("""
            \(RecordRows.subscriberColumns) WHERE publication_id = \(publicationId) AND list_id <> \(listId)
            AND (end_at IS NULL OR end_at > \(instant)) LIMIT \(max(0, limit))
            """, RecordRows.subscriber)
    }

    public func subscriberImports(limit: Int) throws(StoreError) -> [SubscriberImport] {
        try connection.query("\(RecordRows.importColumns) ORDER BY received_at DESC, list_id LIMIT \(Int64(limit))",
                             RecordRows.subscriberImport)
    }
}

extension SQLWriteTransaction {
    /// Inserts or replaces by (publication, customer number).
    public func save(_ subscriber: PrintSubscriber) throws(StoreError) {
        try connection.run(.upsert(
            into: "print_subscribers",
            key: ["publication_id": subscriber.publicationId, "customer_number": subscriber.customerNumber],
            set: ["verification_hash": subscriber.verificationHash, "start": subscriber.terms.start,
                  "end_at": subscriber.terms.end, "list_id": subscriber.listId, "updated_at": subscriber.updatedAt]))
    }

    /// Marks a row as named by list `listId`, changing nothing else (an unchanged row).
    public func markListed(publicationId: String, customerNumber: String, listId: String) throws(StoreError) {
        try connection.run("""
            UPDATE print_subscribers SET list_id = \(listId)
            WHERE publication_id = \(publicationId) AND customer_number = \(customerNumber)
            """)
    }

    /// Inserts or replaces by list id.
    public func save(_ list: SubscriberImport) throws(StoreError) {
        try connection.run(.upsert(
            into: "subscriber_imports", key: ["list_id": list.listId],
            set: ["publication_id": list.publicationId, "kind": list.kind.rawValue, "received_at": list.receivedAt,
                  "finished_at": list.finishedAt, "added": list.counts.added, "changed": list.counts.changed,
                  "ended": list.counts.ended, "unchanged": list.counts.unchanged, "rejected": list.counts.rejectedCount,
                  "refusal": list.refusal]))
    }

    /// E29: a claimed grant follows its subscriber's interval, or moves to another account (E4).
    public func update(_ grant: Grant) throws(StoreError) {
        try connection.run("""
            UPDATE grants SET account_id = \(grant.accountId), start = \(grant.start), end_at = \(grant.end),
                              revoked_at = \(grant.revokedAt)
            WHERE grant_id = \(grant.grantId)
            """)
    }
}
