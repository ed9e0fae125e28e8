import GatewayCore
import IssueCatalog

/// Issue and product bodies (http-api.md, Catalog) turned into validated model values. The field
/// rules are the catalog files' (`IssueCatalog` validation), so an editor meets one set of rules.
package enum CatalogBodies {
    package static func issue(_ body: RequestBody, publicationId: String) throws(GatewayError) -> Issue {
        var assets: [Asset] = []
        for asset in try body.optionalObjects("assets") ?? [] {
            assets.append(Asset(path: try asset.string("path"), bytes: try asset.optionalInteger("bytes"),
                                sha256: try asset.optionalString("sha256")))
        }
        let issue = Issue(publicationId: publicationId, id: try body.string("id"), title: try body.string("title"),
                          publishedAt: try body.instant("publishedAt"), free: try body.optionalBool("free") ?? false,
                          assets: assets)
        try valid { () throws(CatalogProblem) in try issue.validate() }
        return issue
    }

    package static func product(_ body: RequestBody, id: String, catalog: CatalogSnapshot) throws(GatewayError) -> Product {
        let kindText = try body.string("kind")
        guard let kind = Product.Kind(rawValue: kindText) else {
            throw .invalid("kind must be one of \(Product.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var duration: ISODuration?
        if let text = try body.optionalString("duration") {
            guard let parsed = ISODuration(text) else { throw .invalid("duration must be an ISO 8601 duration such as P3M") }
            duration = parsed
        }
        var store = Store.appStore
        if let text = try body.optionalString("store") {
            guard let parsed = Store(rawValue: text) else {
                throw .invalid("store must be one of \(Store.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            store = parsed
        }
        var issue: IssueRef?
        if let ref = try body.optionalObject("issue") {
            issue = IssueRef(publicationId: try ref.string("publicationId"), issueId: try ref.string("issueId"))
        }
        var level: Int?
        if let value = try body.optionalInteger("level") {
            guard let fits = Int(exactly: value) else { throw .invalid("level is out of range") }
            level = fits
        }
        let product = Product(id: id, store: store, storeProductId: try body.optionalString("storeProductId"),
                              kind: kind, grants: try body.optionalStrings("grants") ?? [],
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

    package static func publication(_ body: RequestBody, id: String) throws(GatewayError) -> Publication {
        let publication = Publication(id: id, title: try body.string("title"))
        try valid { () throws(CatalogProblem) in try publication.validate() }
        return publication
    }

    private static func valid(_ check: () throws(CatalogProblem) -> Void) throws(GatewayError) {
        do { try check() } catch { throw .invalid(error.description) }
    }
}
