import IssueCatalog
import Wire

/// Mapping between catalog values and their rows.
enum CatalogRows {
    static let grantSeparator: Character = ","

    static func revision(_ c: SQLiteConnection) throws(StoreError) -> Int64 {
        try c.queryFirst("SELECT value FROM meta WHERE key = 'catalog_revision'") { $0.int64(0) } ?? 0
    }

    static func bumpRevision(_ c: SQLiteConnection) throws(StoreError) {
        try c.run("UPDATE meta SET value = value + 1 WHERE key = 'catalog_revision'")
    }

    static func missing(_ ref: IssueRef) -> StoreError {
        .notFound("issue \(ref.issueId) of publication \(ref.publicationId)")
    }

    static func publicationExists(_ id: String, _ c: SQLiteConnection) throws(StoreError) -> Bool {
        try c.queryFirst("SELECT 1 FROM publications WHERE id = ?", [.text(id)]) { _ in true } ?? false
    }

    static func upsert(_ p: Publication, _ c: SQLiteConnection) throws(StoreError) {
        try c.run("""
            INSERT INTO publications (id, title) VALUES (?, ?)
            ON CONFLICT (id) DO UPDATE SET title = excluded.title
            """, [.text(p.id), .text(p.title)])
    }

    static func upsert(_ p: Product, _ c: SQLiteConnection) throws(StoreError) {
        try c.run("""
            INSERT OR REPLACE INTO products (id, kind, grants, subscription_group, level, duration,
                issue_publication_id, issue_id, platform, discontinued_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(p.id), .text(p.kind.rawValue), .text(p.grants.joined(separator: String(grantSeparator))),
                  .optional(p.subscriptionGroup), .optional(p.level), .optional(p.duration?.description),
                  .optional(p.issue?.publicationId), .optional(p.issue?.issueId), .optional(p.platform),
                  .optional(p.discontinuedAt?.millisecondsSinceEpoch)])
    }

    static func insert(_ issue: Issue, _ c: SQLiteConnection) throws(StoreError) {
        try c.run("""
            INSERT INTO issues (publication_id, id, title, published_at, free, retracted_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """, [.text(issue.publicationId), .text(issue.id), .text(issue.title),
                  .integer(issue.publishedAt.millisecondsSinceEpoch), .bool(issue.free),
                  .optional(issue.retractedAt?.millisecondsSinceEpoch)])
        for (position, asset) in issue.assets.enumerated() {
            try c.run("""
                INSERT INTO issue_assets (publication_id, issue_id, position, path, bytes, sha256)
                VALUES (?, ?, ?, ?, ?, ?)
                """, [.text(issue.publicationId), .text(issue.id), .optional(position), .text(asset.path),
                      .optional(asset.bytes), .optional(asset.sha256)])
        }
    }

    static func delete(_ ref: IssueRef, _ c: SQLiteConnection) throws(StoreError) {
        try c.run("DELETE FROM issues WHERE publication_id = ? AND id = ?",
                  [.text(ref.publicationId), .text(ref.issueId)])
    }

    static func issue(_ ref: IssueRef, _ c: SQLiteConnection) throws(StoreError) -> Issue? {
        let key: [SQLValue] = [.text(ref.publicationId), .text(ref.issueId)]
        guard var issue = try c.queryFirst(issueColumns + " WHERE publication_id = ? AND id = ?", key, issue) else {
            return nil
        }
        issue.assets = try c.query(assetColumns + " WHERE publication_id = ? AND issue_id = ? ORDER BY position", key) {
            asset($0).1
        }
        return issue
    }

    static func load(_ c: SQLiteConnection) throws(StoreError) -> Catalog {
        let publications = try c.query("SELECT id, title FROM publications ORDER BY id") {
            Publication(id: $0.text(0), title: $0.text(1))
        }
        let products = try c.query("""
            SELECT id, kind, grants, subscription_group, level, duration, issue_publication_id, issue_id,
                   platform, discontinued_at FROM products ORDER BY id
            """) { row throws(StoreError) in try product(row) }
        var assets: [IssueRef: [Asset]] = [:]
        for (ref, asset) in try c.query(assetColumns + " ORDER BY publication_id, issue_id, position", [], asset) {
            assets[ref, default: []].append(asset)
        }
        var issues = try c.query(issueColumns + " ORDER BY publication_id, published_at, id", [], issue)
        for index in issues.indices { issues[index].assets = assets[issues[index].ref] ?? [] }
        return Catalog(publications: publications, products: products, issues: issues)
    }

    private static let issueColumns =
        "SELECT publication_id, id, title, published_at, free, retracted_at FROM issues"
    private static let assetColumns =
        "SELECT publication_id, issue_id, path, bytes, sha256 FROM issue_assets"

    private static func issue(_ row: SQLiteRow) -> Issue {
        Issue(publicationId: row.text(0), id: row.text(1), title: row.text(2),
              publishedAt: Instant(millisecondsSinceEpoch: row.int64(3)), free: row.bool(4),
              retractedAt: row.optionalInt64(5).map(Instant.init(millisecondsSinceEpoch:)))
    }

    private static func asset(_ row: SQLiteRow) -> (IssueRef, Asset) {
        (IssueRef(publicationId: row.text(0), issueId: row.text(1)),
         Asset(path: row.text(2), bytes: row.optionalInt64(3), sha256: row.optionalText(4)))
    }

    private static func product(_ row: SQLiteRow) throws(StoreError) -> Product {
        let id = row.text(0)
        guard let kind = Product.Kind(rawValue: row.text(1)) else { throw .io("product \(id): unknown kind") }
        var duration: ISODuration?
        if let text = row.optionalText(5) {
            guard let parsed = ISODuration(text) else { throw .io("product \(id): bad duration \(text)") }
            duration = parsed
        }
        var issue: IssueRef?
        if let publicationId = row.optionalText(6), let issueId = row.optionalText(7) {
            issue = IssueRef(publicationId: publicationId, issueId: issueId)
        }
        let grants = row.text(2).split(separator: grantSeparator).map(String.init)
        return Product(id: id, kind: kind, grants: grants, subscriptionGroup: row.optionalText(3),
                       level: row.optionalInt(4), duration: duration, issue: issue, platform: row.optionalText(8),
                       discontinuedAt: row.optionalInt64(9).map(Instant.init(millisecondsSinceEpoch:)))
    }
}
