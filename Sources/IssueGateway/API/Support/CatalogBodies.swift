import IssueCatalog

/// Issue and product bodies (http-api.md, Catalog) turned into validated model values. The field
/// rules are the catalog files' (`IssueCatalog` validation), so an editor meets one set of rules.
enum CatalogBodies {
    static func issue(_ body: RequestBody, publicationId: String) throws(APIError) -> Issue {
        var assets: [Asset] = []
        for (index, asset) in (try body.optionalObjects("assets") ?? []).enumerated() {
            let path = try asset.string("path")
            if let problem = undownloadable(path) { throw .badRequest("assets[\(index)].path \(problem)") }
            assets.append(Asset(path: path, bytes: try asset.optionalInteger("bytes"),
                                sha256: try asset.optionalString("sha256")))
        }
        let issue = Issue(publicationId: publicationId, id: try body.string("id"), title: try body.string("title"),
                          publishedAt: try body.instant("publishedAt"), free: try body.optionalBool("free") ?? false,
                          assets: assets)
        try valid { () throws(CatalogProblem) in try issue.validate() }
        try addressable(issue.id, "id")
        return issue
    }

    static func product(_ body: RequestBody, id: String, catalog: CatalogSnapshot) throws(APIError) -> Product {
        let kindText = try body.string("kind")
        guard let kind = Product.Kind(rawValue: kindText) else {
            throw .badRequest("kind must be one of \(Product.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var duration: ISODuration?
        if let text = try body.optionalString("duration") {
            guard let parsed = ISODuration(text) else { throw .badRequest("duration must be an ISO 8601 duration such as P3M") }
            duration = parsed
        }
        var issue: IssueRef?
        if let ref = try body.optionalObject("issue") {
            issue = IssueRef(publicationId: try ref.string("publicationId"), issueId: try ref.string("issueId"))
        }
        var level: Int?
        if let value = try body.optionalInteger("level") {
            guard let fits = Int(exactly: value) else { throw .badRequest("level is out of range") }
            level = fits
        }
        try addressable(id, "productId")
        let product = Product(id: id, kind: kind, grants: try body.optionalStrings("grants") ?? [],
                              subscriptionGroup: try body.optionalString("subscriptionGroup"), level: level,
                              duration: duration, issue: issue, platform: try body.optionalString("platform"),
                              discontinuedAt: try body.optionalInstant("discontinuedAt"))
        try valid { () throws(CatalogProblem) in
            try product.validate()
            try product.validateReferences(publications: Set(catalog.publications.map(\.id)),
                                           issues: issue.map { catalog.issue($0) != nil ? [$0] : [] } ?? [])
        }
        return product
    }

    static func publication(_ body: RequestBody, id: String) throws(APIError) -> Publication {
        try addressable(id, "publicationId")
        let publication = Publication(id: id, title: try body.string("title"))
        try valid { () throws(CatalogProblem) in try publication.validate() }
        return publication
    }

    /// Ids become URL path segments (`/v1/publications/{publicationId}/…`). The id rule
    /// (`[A-Za-z0-9._-]`) lets `.` and `..` through, but those are dot segments (RFC 3986 §3.3,
    /// §5.2.4): clients and proxies remove them, so such an id could never be addressed again, and
    /// in a catalog folder they would name the folder itself or its parent. Refused here.
    private static func addressable(_ id: String, _ field: String) throws(APIError) {
        if id == "." || id == ".." { throw .badRequest("\(field) must not be . or ..") }
    }

    /// What would make an asset path publishable but never downloadable, beyond the catalog's
    /// own path rules: tokens.md step 5 refuses every requested path holding a backslash, and
    /// clients remove `.` segments before sending (RFC 3986 §5.2.4), so neither could ever equal
    /// the requested path.
    private static func undownloadable(_ path: String) -> String? {
        if path.contains("\\") { return "must not contain a backslash" }
        if path.split(separator: "/", omittingEmptySubsequences: false).contains(".") { return "must not contain . segments" }
        return nil
    }

    private static func valid(_ check: () throws(CatalogProblem) -> Void) throws(APIError) {
        do { try check() } catch { throw .badRequest(error.description) }
    }
}
