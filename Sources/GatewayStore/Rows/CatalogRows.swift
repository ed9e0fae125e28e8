import IssueCatalog
import Wire

/// The catalog's rows: publications, products, issues and their assets, and the revision that
/// grows with every catalog change (in `meta`).
extension RecordRows {
    public static let publicationColumns: SQL = "SELECT id, title FROM publications"
    public static let productColumns: SQL = """
        SELECT id, kind, grants, subscription_group, level, duration, issue_publication_id, issue_id,
               platform, discontinued_at, store, store_product_id FROM products
        """
    public static let issueColumns: SQL = "SELECT publication_id, id, title, published_at, free, retracted_at FROM issues"
    public static let assetColumns: SQL = "SELECT publication_id, issue_id, path, bytes, sha256 FROM issue_assets"

    public static func publication(_ row: some StoredRow) -> Publication { Publication(id: row.text(0), title: row.text(1)) }

    public static func issue(_ row: some StoredRow) -> Issue {
        Issue(publicationId: row.text(0), id: row.text(1), title: row.text(2), publishedAt: row.instant(3),
              free: row.bool(4), retractedAt: row.optionalInstant(5))
    }

    public static func asset(_ row: some StoredRow) -> (IssueRef, Asset) {
        (IssueRef(publicationId: row.text(0), issueId: row.text(1)),
         Asset(path: row.text(2), bytes: row.optionalInt64(3), sha256: row.optionalText(4)))
    }

    public static func product(_ row: some StoredRow) throws(StoreError) -> Product {
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
        return Product(id: id, store: try row.decode(Store.self, 10, of: id), storeProductId: row.text(11),
                       kind: kind, grants: splitIds(row.text(2)), subscriptionGroup: row.optionalText(3),
                       level: row.optionalInt(4), duration: duration, issue: issue, platform: row.optionalText(8),
                       discontinuedAt: row.optionalInstant(9))
    }

    /// An issue's key columns, `publication_id = … AND <idColumn> = …`.
    static func issueKey(_ ref: IssueRef, idColumn: StaticString = "id") -> SQL {
        "publication_id = \(ref.publicationId) AND \(literal: idColumn) = \(ref.issueId)"
    }
}

extension SQLReading {
    public func catalog() throws(StoreError) -> Catalog {
        let c = connection
        let publications = try c.query("\(RecordRows.publicationColumns) ORDER BY id", RecordRows.publication)
        let products = try c.query("\(RecordRows.productColumns) ORDER BY id") { row throws(StoreError) in
            try RecordRows.product(row)
        }
        var assets: [IssueRef: [Asset]] = [:]
        for (ref, asset) in try c.query("\(RecordRows.assetColumns) ORDER BY publication_id, issue_id, position",
                                        RecordRows.asset) {
            assets[ref, default: []].append(asset)
        }
        var issues = try c.query("\(RecordRows.issueColumns) ORDER BY publication_id, published_at, id", RecordRows.issue)
        for index in issues.indices { issues[index].assets = assets[issues[index].ref] ?? [] }
        return Catalog(publications: publications, products: products, issues: issues)
    }

    public func catalogRevision() throws(StoreError) -> Int64 {
        try connection.queryFirst("SELECT value FROM meta WHERE key = 'catalog_revision'") { $0.int64(0) } ?? 0
    }

    public func publicationExists(_ id: String) throws(StoreError) -> Bool {
        try connection.exists("SELECT 1 FROM publications WHERE id = \(id)")
    }

    public func productExists(_ id: String) throws(StoreError) -> Bool {
        try connection.exists("SELECT 1 FROM products WHERE id = \(id)")
    }

    /// The id of the catalog product a store sells as `ref`, if any (Vocabulary: Product).
    public func productId(of ref: StoreProductRef) throws(StoreError) -> String? {
        try connection.queryFirst("""
            SELECT id FROM products WHERE store = \(ref.store.rawValue) AND store_product_id = \(ref.storeProductId)
            """) { $0.text(0) }
    }

    public func issue(_ ref: IssueRef) throws(StoreError) -> Issue? {
        guard var issue = try connection.queryFirst("\(RecordRows.issueColumns) WHERE \(RecordRows.issueKey(ref))",
                                                    RecordRows.issue) else { return nil }
        issue.assets = try connection.query("""
            \(RecordRows.assetColumns) WHERE \(RecordRows.issueKey(ref, idColumn: "issue_id")) ORDER BY position
            """) { RecordRows.asset($0).1 }
        return issue
    }
}

extension SQLWriteTransaction {
    public func deleteCatalog() throws(StoreError) {
        for table: StaticString in ["issue_assets", "issues", "products", "publications"] {
            try connection.run("DELETE FROM \(literal: table)")
        }
    }

    public func save(_ p: Publication) throws(StoreError) {
        try connection.run(.upsert(into: "publications", key: ["id": p.id], set: ["title": p.title]))
    }

    public func save(_ p: Product) throws(StoreError) {
        try connection.run(.upsert(
            into: "products", key: ["id": p.id],
            set: ["store": p.store.rawValue, "store_product_id": p.storeProductId, "kind": p.kind.rawValue,
                  "grants": RecordRows.joinIds(p.grants), "subscription_group": p.subscriptionGroup, "level": p.level,
                  "duration": p.duration?.description, "issue_publication_id": p.issue?.publicationId,
                  "issue_id": p.issue?.issueId, "platform": p.platform, "discontinued_at": p.discontinuedAt]))
    }

    public func insert(_ issue: Issue) throws(StoreError) -> Bool {
        guard try connection.run("""
            INSERT INTO issues (publication_id, id, title, published_at, free, retracted_at)
            VALUES (\(issue.publicationId), \(issue.id), \(issue.title), \(issue.publishedAt), \(issue.free),
                    \(issue.retractedAt))
            ON CONFLICT DO NOTHING
            """) == 1 else { return false }
        for (position, asset) in issue.assets.enumerated() {
            try connection.run("""
                INSERT INTO issue_assets (publication_id, issue_id, position, path, bytes, sha256)
                VALUES (\(issue.publicationId), \(issue.id), \(position), \(asset.path), \(asset.bytes), \(asset.sha256))
                """)
        }
        return true
    }

    public func deleteIssue(_ ref: IssueRef) throws(StoreError) -> Bool {
        try connection.run("DELETE FROM issues WHERE \(RecordRows.issueKey(ref))") > 0
    }

    public func bumpCatalogRevision() throws(StoreError) {
        try hooks.recordChange(.catalog)
        try connection.run("UPDATE meta SET value = value + 1 WHERE key = 'catalog_revision'")
    }
}
