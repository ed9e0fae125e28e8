import Wire

/// Documents to model values and back. Parsing instants and durations here lets a bad value be
/// reported at its field.
extension PublicationDocument {
    init(_ publication: Publication, issues: [Issue]) {
        self.init(id: publication.id, title: publication.title, issues: issues.map(IssueDocument.init))
    }

    func model(at path: FieldPath) throws(CatalogProblem) -> (Publication, [Issue]) {
        var issues: [Issue] = []
        for (index, document) in self.issues.enumerated() {
            issues.append(try document.model(publicationId: id, at: path.field("issues").index(index)))
        }
        return (Publication(id: id, title: title), issues)
    }
}

extension IssueDocument {
    init(_ issue: Issue) {
        self.init(id: issue.id, title: issue.title, publishedAt: issue.publishedAt.rfc3339,
                  free: issue.free ? true : nil,
                  assets: issue.assets.map { AssetDocument(path: $0.path, bytes: $0.bytes, sha256: $0.sha256) },
                  retractedAt: issue.retractedAt?.rfc3339)
    }

    func model(publicationId: String, at path: FieldPath) throws(CatalogProblem) -> Issue {
        Issue(publicationId: publicationId, id: id, title: title,
              publishedAt: try instant(publishedAt, at: path.field("publishedAt")), free: free ?? false,
              assets: assets.map { Asset(path: $0.path, bytes: $0.bytes, sha256: $0.sha256) },
              retractedAt: try retractedAt.map { (text) throws(CatalogProblem) in
                  try instant(text, at: path.field("retractedAt"))
              })
    }
}

extension ProductDocument {
    init(_ product: Product) {
        self.init(id: product.id, store: product.store == .appStore ? nil : product.store.rawValue,
                  storeProductId: product.storeProductId == product.id ? nil : product.storeProductId,
                  kind: product.kind.rawValue, grants: product.grants,
                  subscriptionGroup: product.subscriptionGroup, level: product.level,
                  duration: product.duration?.description,
                  issue: product.issue.map { IssueRefDocument(publicationId: $0.publicationId, issueId: $0.issueId) },
                  platform: product.platform, discontinuedAt: product.discontinuedAt?.rfc3339)
    }

    func model(at path: FieldPath) throws(CatalogProblem) -> Product {
        guard let kind = Product.Kind(rawValue: kind) else {
            let kinds = Product.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw path.field("kind").problem("\(FieldRules.quoted(self.kind)) is not one of \(kinds)")
        }
        var parsedStore = Store.appStore
        if let store {
            guard let parsed = Store(rawValue: store) else {
                let stores = Store.allCases.map(\.rawValue).joined(separator: ", ")
                throw path.field("store").problem("\(FieldRules.quoted(store)) is not one of \(stores)")
            }
            parsedStore = parsed
        }
        var parsedDuration: ISODuration?
        if let duration {
            guard let parsed = ISODuration(duration) else {
                throw path.field("duration").problem("\(FieldRules.quoted(duration)) is not an ISO 8601 duration such as P3M")
            }
            parsedDuration = parsed
        }
        return Product(id: id, store: parsedStore, storeProductId: storeProductId, kind: kind, grants: grants, subscriptionGroup: subscriptionGroup, level: level,
                       duration: parsedDuration,
                       issue: issue.map { IssueRef(publicationId: $0.publicationId, issueId: $0.issueId) },
                       platform: platform,
                       discontinuedAt: try discontinuedAt.map { (text) throws(CatalogProblem) in
                           try instant(text, at: path.field("discontinuedAt"))
                       })
    }
}

private func instant(_ text: String, at path: FieldPath) throws(CatalogProblem) -> Instant {
    guard let instant = Instant(rfc3339: text) else {
        throw path.problem("\(FieldRules.quoted(text)) is not an RFC 3339 instant such as 2026-11-01T00:00:00-05:00")
    }
    return instant
}
