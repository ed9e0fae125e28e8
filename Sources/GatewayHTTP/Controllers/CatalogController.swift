import GatewayCore
import GatewayStore
import HTTPServer
import IssueCatalog
import Wire

/// Publications, products and issues (http-api.md, Catalog). Changes run on workers (they write
/// the database) and swap the shared catalog state, so the next request on every loop sees them.
package struct CatalogController: APIController {
    private let access: Access
    private let catalog: CatalogCache
    private let changes: CatalogChanges
    private let lists: ListResponder
    private let clock: any GatewayClock

    package init(access: Access, catalog: CatalogCache, changes: CatalogChanges, lists: ListResponder, clock: any GatewayClock) {
        self.access = access; self.catalog = catalog; self.changes = changes; self.lists = lists
        self.clock = clock
    }

    package func register(_ router: APIRouterBuilder) {
        // Catalog lists carry entity tags of the catalog's content (http-api.md, cheap polling).
        router.add("GET", "/v1/publications") { [self] request in
            let state = catalog.state
            var tag = state.fingerprint
            tag.combine("publications")
            return lists.listResponse(request, tag: EntityTag(tag)) {
                var w = JSONWriter()
                w.object { w in
                    w.key("publications")
                    w.array { w in for p in state.snapshot.publications { w.publication(p) } }
                }
                return w.bytes
            }
        }
        router.add("PUT", "/v1/publications/{publicationId}", execution: .store, route: { [self] context throws(GatewayError) in
            try access.requireAdmin(&context)
            let publication = try CatalogBodies.publication(try RequestBody(context.request), id: context.parameter("publicationId"))
            let outcome = try changes.save(publication)
            return .json(outcome == .created ? 201 : 200) { w in w.publication(publication) }
        })
        router.add("GET", "/v1/products", route: { [self] context throws(GatewayError) in
            let all = try context.flag("all")
            let now = clock.now()
            let state = catalog.state
            var tag = state.fingerprint
            tag.combine("products")
            // Which products are listed depends on the time (discontinued ones drop out).
            var listed: [Product] = []
            for (position, product) in state.snapshot.products.enumerated() where all || !product.isDiscontinued(at: now) {
                listed.append(product)
                tag.combine(UInt64(position))
            }
            return lists.listResponse(context.request, tag: EntityTag(tag)) {
                var w = JSONWriter()
                w.object { w in
                    w.key("products")
                    w.array { w in for p in listed { w.product(p) } }
                }
                return w.bytes
            }
        })
        router.add("PUT", "/v1/products/{productId}", execution: .store, route: { [self] context throws(GatewayError) in
            try access.requireAdmin(&context)
            let product = try CatalogBodies.product(try RequestBody(context.request), id: context.parameter("productId"),
                                                    catalog: catalog.state.snapshot)
            let outcome = try changes.save(product)
            return .json(outcome == .created ? 201 : 200) { w in w.product(product) }
        })
        registerIssueRoutes(router)
    }

    private func registerIssueRoutes(_ router: APIRouterBuilder) {
        let issues = "/v1/publications/{publicationId}/issues"
        router.add("GET", issues, execution: .store, route: { [self] context throws(GatewayError) in
            let publicationId = context.parameter("publicationId")
            let state = catalog.state
            guard state.snapshot.publication(publicationId) != nil else { throw .notFound("no publication \(publicationId)") }
            // E16: scheduled and retracted issues are listed to editors of the publication only.
            var includeAll = false
            let include = context.queryParameter("include")
            guard include == nil || include == "all" else { throw .invalid("include takes the value all") }
            if include == "all" {
                guard try context.principal().mayEdit(publication: publicationId) else { throw .forbidden() }
                includeAll = true
            }
            let page = try ListPage(context.query)
            let now = clock.now()
            var pager = ListPager(page)
            let listed = state.snapshot.issues(of: publicationId).reversed()
                .filter { issue in (includeAll || issue.state(at: now) == .published) && pager.admits({ issue }) }
            // The tag: the catalog, the list asked for, each listed issue's state (the one member
            // that changes with the time) and whether a `next` is answered.
            var tag = state.fingerprint
            tag.combine("publication-issues")
            tag.combine(publicationId)
            tag.combine(UInt64(includeAll ? 1 : 0) << 1 | UInt64(pager.hasMore ? 1 : 0))
            page.combine(into: &tag)
            for issue in listed {
                tag.combine(issue.id)
                tag.combine(issue.state(at: now).rawValue)
            }
            return lists.listResponse(context.request, tag: EntityTag(tag)) {
                var w = JSONWriter(capacity: 64 + listed.count * 512)
                w.object { w in
                    w.key("issues")
                    w.array { w in for issue in listed { w.catalogIssue(issue, now: now) } }
                    if let next = pager.next { w.field("next", next.token) }
                }
                return w.bytes
            }
        })
        router.add("POST", issues, execution: .store, route: { [self] context throws(GatewayError) in
            let publicationId = try access.requireEditor(&context)
            let issue = try CatalogBodies.issue(try RequestBody(context.request), publicationId: publicationId)
            try changes.add(issue)
            let now = clock.now()
            return .json(201) { w in w.catalogIssue(issue, now: now) }
        })
        let oneIssue = issues + "/{issueId}"
        router.add("PUT", oneIssue, execution: .store, route: { [self] context throws(GatewayError) in
            let publicationId = try access.requireEditor(&context)
            let issue = try CatalogBodies.issue(try RequestBody(context.request), publicationId: publicationId)
            guard issue.id == context.parameter("issueId") else {
                throw .invalid("id in the body (\(issue.id)) differs from the issue in the path")
            }
            let updated = try changes.update(issue)
            let now = clock.now()
            return .json(200) { w in w.catalogIssue(updated, now: now) }
        })
        router.add("DELETE", oneIssue, execution: .store, route: { [self] context throws(GatewayError) in
            let publicationId = try access.requireEditor(&context)
            let ref = IssueRef(publicationId: publicationId, issueId: context.parameter("issueId"))
            let now = clock.now()
            let retracted = try changes.retract(ref, at: now)
            return .json(200) { w in w.catalogIssue(retracted, now: now) }
        })
    }
}
