import IssueCatalog
import Wire

/// Catalog values in the shapes of http-api.md (Catalog). Instants are RFC 3339 UTC with
/// milliseconds.
extension JSONWriter {
    package mutating func publication(_ publication: Publication) {
        object { w in
            w.field("id", publication.id)
            w.field("title", publication.title)
        }
    }

    package mutating func product(_ product: Product) {
        object { w in
            w.field("id", product.id)
            w.field("store", product.store.rawValue)
            w.field("storeProductId", product.storeProductId)
            w.field("kind", product.kind.rawValue)
            w.key("grants")
            w.array { w in for grant in product.grants { w.string(grant) } }
            w.field("subscriptionGroup", product.subscriptionGroup)
            w.key("level")
            if let level = product.level { w.int(level) } else { w.null() }
            w.field("duration", product.duration?.description)
            w.key("issue")
            if let issue = product.issue { w.issueRef(issue) } else { w.null() }
            w.field("platform", product.platform)
            w.field("discontinuedAt", product.discontinuedAt?.rfc3339)
        }
    }

    package mutating func issueRef(_ ref: IssueRef) {
        object { w in
            w.field("publicationId", ref.publicationId)
            w.field("issueId", ref.issueId)
        }
    }

    /// An issue as editors see it: the body fields plus `publicationId` and `state`.
    package mutating func catalogIssue(_ issue: Issue, now: Instant) {
        object { w in
            w.field("publicationId", issue.publicationId)
            w.field("id", issue.id)
            w.field("title", issue.title)
            w.field("publishedAt", issue.publishedAt.rfc3339)
            w.field("free", issue.free)
            w.field("state", issue.state(at: now).rawValue)
            if let retractedAt = issue.retractedAt { w.field("retractedAt", retractedAt.rfc3339) }
            w.key("assets")
            w.assets(issue.assets)
        }
    }

    package mutating func assets(_ assets: [Asset]) {
        array { w in
            for asset in assets {
                w.object { w in
                    w.field("path", asset.path)
                    if let bytes = asset.bytes { w.key("bytes"); w.int(Int(bytes)) }
                    if let sha256 = asset.sha256 { w.field("sha256", sha256) }
                }
            }
        }
    }
}
