import Wire

/// E29's `subscriber_list_locks`: which list of a publication is being applied, one row per
/// publication while one is. Taking it is one statement that either inserts the row or takes over
/// one whose holder is this list or whose hold ran out; two units of work taking it at once cannot
/// both succeed: SQLite runs one writer at a time, and on PostgreSQL (`REPEATABLE READ`) the later
/// one fails with a serialization failure on the row (or on the conflict clause when the row is
/// new to it) and runs again on a fresh snapshot, where it sees the holder.
extension SQLWriteTransaction {
    public func holdSubscriberListLock(publicationId: String, listId: String, now: Instant, until: Instant) throws(StoreError) -> Bool {
        let inserted = try connection.run("""
            INSERT INTO subscriber_list_locks (publication_id, list_id, held_until)
            VALUES (\(publicationId), \(listId), \(until))
            ON CONFLICT DO NOTHING
            """)
        if inserted > 0 { return true }
        return try connection.run("""
            UPDATE subscriber_list_locks SET list_id = \(listId), held_until = \(until)
            WHERE publication_id = \(publicationId) AND (list_id = \(listId) OR held_until <= \(now))
            """) > 0
    }

    public func releaseSubscriberListLock(publicationId: String, listId: String) throws(StoreError) {
        try connection.run("DELETE FROM subscriber_list_locks WHERE publication_id = \(publicationId) AND list_id = \(listId)")
    }
}
