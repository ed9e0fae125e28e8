import GatewayStore
import IssueCatalog
import Wire

/// The catalog's rows. Grants and key scopes are publication ids joined by `grantSeparator`
/// (ids are `[A-Za-z0-9._-]`, so never hold one).
enum CatalogRows {
    static let grantSeparator: Character = ","

    static func join(_ ids: [String]) -> PGValue { .text(ids.joined(separator: String(grantSeparator))) }
    static func split(_ text: String) -> [String] { text.split(separator: grantSeparator).map(String.init) }

    static let issueColumns = "SELECT publication_id, id, title, published_at, free, retracted_at FROM issues"
    static let assetColumns = "SELECT publication_id, issue_id, path, bytes, sha256 FROM issue_assets"

    static func issue(_ row: PGRow) -> Issue {
        Issue(publicationId: row.text(0), id: row.text(1), title: row.text(2), publishedAt: row.instant(3),
              free: row.bool(4), retractedAt: row.optionalInstant(5))
    }

    static func asset(_ row: PGRow) -> (IssueRef, Asset) {
        (IssueRef(publicationId: row.text(0), issueId: row.text(1)),
         Asset(path: row.text(2), bytes: row.optionalInt64(3), sha256: row.optionalText(4)))
    }

    static func product(_ row: PGRow) throws(StoreError) -> Product {
        let id = row.text(0)
        let kind = try row.decode(Product.Kind.self, 1, of: id)
        var duration: ISODuration?
        if let text = row.optionalText(5) {
            guard let parsed = ISODuration(text) else { throw row.corrupt("product \(id): bad duration \(text)") }
            duration = parsed
        }
        var issue: IssueRef?
        if let publicationId = row.optionalText(6), let issueId = row.optionalText(7) {
            issue = IssueRef(publicationId: publicationId, issueId: issueId)
        }
        return Product(id: id, kind: kind, grants: split(row.text(2)), subscriptionGroup: row.optionalText(3),
                       level: row.optionalInt(4), duration: duration, issue: issue, platform: row.optionalText(8),
                       discontinuedAt: row.optionalInstant(9))
    }

    static func key(_ ref: IssueRef) -> [PGValue] { [.text(ref.publicationId), .text(ref.issueId)] }
}

extension PostgresReading {
    func catalog() throws(StoreError) -> Catalog {
        let c = connection
        let publications = try c.query("SELECT id, title FROM publications ORDER BY id") {
            Publication(id: $0.text(0), title: $0.text(1))
        }
        let products = try c.query("""
            SELECT id, kind, grants, subscription_group, level, duration, issue_publication_id, issue_id,
                   platform, discontinued_at FROM products ORDER BY id
            """) { row throws(StoreError) in try CatalogRows.product(row) }
        var assets: [IssueRef: [Asset]] = [:]
        for (ref, asset) in try c.query(CatalogRows.assetColumns + " ORDER BY publication_id, issue_id, position", [],
                                        CatalogRows.asset) {
            assets[ref, default: []].append(asset)
        }
        var issues = try c.query(CatalogRows.issueColumns + " ORDER BY publication_id, published_at, id", [],
                                 CatalogRows.issue)
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
        guard var issue = try connection.queryFirst(CatalogRows.issueColumns + " WHERE publication_id = $1 AND id = $2",
                                                    key, CatalogRows.issue) else { return nil }
        issue.assets = try connection.query(
            CatalogRows.assetColumns + " WHERE publication_id = $1 AND issue_id = $2 ORDER BY position", key) {
            CatalogRows.asset($0).1
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
        try connection.run("UPDATE meta SET value = value + 1 WHERE key = 'catalog_revision'")
        try recordChange(.catalog)
    }
}
