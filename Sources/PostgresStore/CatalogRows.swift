import GatewayStore
import IssueCatalog
import Wire

/// The catalog's rows (read with `RecordRows`). Grants and key scopes are publication ids joined
/// by `RecordRows.idSeparator`.
enum CatalogRows {
    static func join(_ ids: [String]) -> PGValue { .text(RecordRows.joinIds(ids)) }

    static func key(_ ref: IssueRef) -> [PGValue] { [.text(ref.publicationId), .text(ref.issueId)] }
}

extension PostgresReading {
    func catalog() throws(StoreError) -> Catalog {
        let c = connection
        let publications = try c.query(RecordRows.publicationColumns + " ORDER BY id", [], RecordRows.publication)
        let products = try c.query(RecordRows.productColumns + " ORDER BY id") { row throws(StoreError) in
            try RecordRows.product(row)
        }
        var assets: [IssueRef: [Asset]] = [:]
        for (ref, asset) in try c.query(RecordRows.assetColumns + " ORDER BY publication_id, issue_id, position", [],
                                        RecordRows.asset) {
            assets[ref, default: []].append(asset)
        }
        var issues = try c.query(RecordRows.issueColumns + " ORDER BY publication_id, published_at, id", [],
                                 RecordRows.issue)
        for index in issues.indices { issues[index].assets = assets[issues[index].ref] ?? [] }
        return Catalog(publications: publications, products: products, issues: issues)
    }

    func catalogRevision() throws(StoreError) -> Int64 {
        try connection.queryFirst("SELECT value FROM meta WHERE key = 'catalog_revision'") { $0.int64(0) } ?? 0
    }

    func publicationExists(_ id: String) throws(StoreError) -> Bool {
        try connection.queryFirst("SELECT 1 FROM publications WHERE id = $1", [.text(id)]) { _ in true } ?? false
    }

    func productExists(_ id: String) throws(StoreError) -> Bool {
        try connection.queryFirst("SELECT 1 FROM products WHERE id = $1", [.text(id)]) { _ in true } ?? false
    }

    func issue(_ ref: IssueRef) throws(StoreError) -> Issue? {
        let key = CatalogRows.key(ref)
        guard var issue = try connection.queryFirst(RecordRows.issueColumns + " WHERE publication_id = $1 AND id = $2",
                                                    key, RecordRows.issue) else { return nil }
        issue.assets = try connection.query(
            RecordRows.assetColumns + " WHERE publication_id = $1 AND issue_id = $2 ORDER BY position", key) {
            RecordRows.asset($0).1
        }
        return issue
    }
}

extension PostgresWriteTransaction {
    func deleteCatalog() throws(StoreError) {
        for table in ["issue_assets", "issues", "products", "publications"] {
            try connection.run("DELETE FROM \(table)")
        }
    }

    func save(_ p: Publication) throws(StoreError) {
        try connection.run("""
            INSERT INTO publications (id, title) VALUES ($1, $2)
            ON CONFLICT (id) DO UPDATE SET title = excluded.title
            """, [.text(p.id), .text(p.title)])
    }

    func save(_ p: Product) throws(StoreError) {
        try connection.run("""
            INSERT INTO products (id, kind, grants, subscription_group, level, duration,
                issue_publication_id, issue_id, platform, discontinued_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
            ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, grants = excluded.grants,
                subscription_group = excluded.subscription_group, level = excluded.level,
                duration = excluded.duration, issue_publication_id = excluded.issue_publication_id,
                issue_id = excluded.issue_id, platform = excluded.platform, discontinued_at = excluded.discontinued_at
            """, [.text(p.id), .text(p.kind.rawValue), CatalogRows.join(p.grants),
                  .optional(p.subscriptionGroup), .optional(p.level), .optional(p.duration?.description),
                  .optional(p.issue?.publicationId), .optional(p.issue?.issueId), .optional(p.platform),
                  .optional(p.discontinuedAt)])
    }

    func insert(_ issue: Issue) throws(StoreError) {
        try connection.run("""
            INSERT INTO issues (publication_id, id, title, published_at, free, retracted_at)
            VALUES ($1, $2, $3, $4, $5, $6)
            """, [.text(issue.publicationId), .text(issue.id), .text(issue.title),
                  .instant(issue.publishedAt), .boolean(issue.free), .optional(issue.retractedAt)])
        for (position, asset) in issue.assets.enumerated() {
            try connection.run("""
                INSERT INTO issue_assets (publication_id, issue_id, position, path, bytes, sha256)
                VALUES ($1, $2, $3, $4, $5, $6)
                """, [.text(issue.publicationId), .text(issue.id), .optional(position), .text(asset.path),
                      .optional(asset.bytes), .optional(asset.sha256)])
        }
    }

    func deleteIssue(_ ref: IssueRef) throws(StoreError) -> Bool {
        try connection.run("DELETE FROM issues WHERE publication_id = $1 AND id = $2", CatalogRows.key(ref)) > 0
    }

    func bumpCatalogRevision() throws(StoreError) {
        try recordChange(.catalog)  // the change log's lock before the row's: see `recordChange`
        try connection.run("UPDATE meta SET value = value + 1 WHERE key = 'catalog_revision'")
    }
}
