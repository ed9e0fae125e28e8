import IssueCatalog
import Wire

/// E36's `download_records`: per reader (account or institution) and issue, first and last
/// instant and count of download tokens handed out.
extension RecordRows {
    static let downloadColumns: SQL = """
        SELECT reader, reader_id, publication_id, issue_id, first_at, last_at, downloads FROM download_records
        """

    static func download(_ row: some StoredRow) throws(StoreError) -> DownloadRecord {
        guard let reader = DownloadReader(kind: row.text(0), id: row.text(1)) else { throw row.corrupt("download reader \(row.text(0))") }
        return DownloadRecord(reader: reader, issue: IssueRef(publicationId: row.text(2), issueId: row.text(3)),
                              firstAt: row.instant(4), lastAt: row.instant(5), downloads: row.int64(6))
    }
}

extension SQLReading {
    /// Every reader's record of one issue.
    public func downloadRecords(of issue: IssueRef) throws(StoreError) -> [DownloadRecord] {
        try connection.query("""
            \(RecordRows.downloadColumns) WHERE publication_id = \(issue.publicationId) AND issue_id = \(issue.issueId)
            """) { row throws(StoreError) in try RecordRows.download(row) }
    }

    public func downloadRecords(of reader: DownloadReader) throws(StoreError) -> [DownloadRecord] {
        let (kind, id) = reader.column
        return try connection.query("""
            \(RecordRows.downloadColumns) WHERE reader = \(kind) AND reader_id = \(id) ORDER BY publication_id, issue_id
            """) { row throws(StoreError) in try RecordRows.download(row) }
    }
}

extension SQLWriteTransaction {
    /// Adds each record to the stored one of its pair (earliest first, latest last, counts added),
    /// or stores it: what a flush of the hot path's counts writes. One statement a chunk
    /// (`SQLRowChunks`); the records of one pair are merged first, as PostgreSQL refuses to
    /// update one row twice in a statement.
    public func record(_ downloads: [DownloadRecord]) throws(StoreError) {
        var merged: [DownloadRecord.Pair: DownloadRecord] = [:]
        var order: [DownloadRecord.Pair] = []
        for download in downloads {
            if let earlier = merged[download.pair] {
                merged[download.pair] = earlier.merged(with: download)
            } else {
                merged[download.pair] = download
                order.append(download.pair)
            }
        }
        for chunk in SQLRowChunks.chunks(order.compactMap { merged[$0] }) {
            try connection.runLater(Self.recordStatement(chunk))
        }
    }

    private static func recordStatement(_ chunk: ArraySlice<DownloadRecord>) -> SQL {
        let rows = SQLRowChunks.values(chunk) { download in
            let (kind, id) = download.reader.column
            return """
                \(kind), \(id), \(download.issue.publicationId), \(download.issue.issueId), \(download.firstAt), \
                \(download.lastAt), \(download.downloads)
                """
        }
        return """
            INSERT INTO download_records (reader, reader_id, publication_id, issue_id, first_at, last_at, downloads)
            VALUES \(rows)
            ON CONFLICT (reader, reader_id, publication_id, issue_id) DO UPDATE SET
              first_at = CASE WHEN excluded.first_at < download_records.first_at THEN excluded.first_at
                              ELSE download_records.first_at END,
              last_at = CASE WHEN excluded.last_at > download_records.last_at THEN excluded.last_at
                             ELSE download_records.last_at END,
              downloads = download_records.downloads + excluded.downloads
            """
    }

    /// E35: an erased account leaves circulation as if it had never read.
    public func eraseDownloadRecords(ofAccount accountId: String) throws(StoreError) {
        try connection.run("DELETE FROM download_records WHERE reader = 'account' AND reader_id = \(accountId)")
    }

    /// E32: a merged account's records join those of the account it merged into, pair by pair.
    public func moveDownloadRecords(from source: String, to target: String) throws(StoreError) {
        guard source != target else { return }
        try record(try downloadRecords(of: .account(source)).map { download in
            var moved = download
            moved.reader = .account(target)
            return moved
        })
        try eraseDownloadRecords(ofAccount: source)
    }
}
