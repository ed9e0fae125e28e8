import Foundation
import Testing
import IssueCatalog
import GatewayStore

@Suite struct StoreCatalogTests {
    @Test(arguments: StoreBackend.all)
    func importedCatalogLoadsBackEqual(_ backend: StoreBackend) throws {
        let opened = try backend.open()
        let store = opened.store
        #expect(try store.catalogRevision() == 0)
        try store.importCatalog(Fixtures.catalog)
        #expect(try store.loadCatalog() == Fixtures.catalog.normalized())
        #expect(try store.catalogRevision() > 0)
    }

    @Test(arguments: StoreBackend.all)
    func importReplacesTheWholeCatalog(_ backend: StoreBackend) throws {
        let opened = try backend.openWithCatalog()
        let store = opened.store
        let smaller = Catalog(publications: [Publication(id: "other", title: "Other")])
        try store.importCatalog(smaller)
        #expect(try store.loadCatalog() == smaller)
    }

    @Test(arguments: StoreBackend.all)
    func aFailedImportLeavesTheOldCatalog(_ backend: StoreBackend) throws {
        let opened = try backend.openWithCatalog()
        let store = opened.store
        let revision = try store.catalogRevision()
        var broken = Fixtures.catalog
        broken.publications.append(Publication(id: "extra", title: "Extra"))
        broken.issues.append(Issue(publicationId: "nowhere", id: "x", title: "x", publishedAt: Fixtures.t0))
        #expect(try store.importCatalog(broken) == .unknownPublication(of: IssueRef(publicationId: "nowhere", issueId: "x")))
        #expect(try store.loadCatalog() == Fixtures.catalog.normalized())
        #expect(try store.catalogRevision() == revision)
    }

    @Test(arguments: StoreBackend.all)
    func upsertsSayCreatedOrUpdated(_ backend: StoreBackend) throws {
        let opened = try backend.open()
        let store = opened.store
        #expect(try store.upsertPublication(Publication(id: "p", title: "One")) == .created)
        #expect(try store.upsertPublication(Publication(id: "p", title: "Two")) == .updated)
        let product = Product(id: "x", kind: .free, grants: ["p"])
        #expect(try store.upsertProduct(product) == .saved(.created))
        #expect(try store.upsertProduct(product) == .saved(.updated))
        #expect(try store.upsertProduct(Product(id: "y", kind: .free, grants: ["nope"])) == .unknownPublication("nope"))
        let catalog = try store.loadCatalog()
        #expect(catalog.publications == [Publication(id: "p", title: "Two")])
        #expect(catalog.products == [product])
    }

    @Test(arguments: StoreBackend.all)
    func issuesConflictRetractAndRepublish(_ backend: StoreBackend) throws {
        let opened = try backend.openWithCatalog()
        let store = opened.store
        let issue = Fixtures.catalog.issues[0]
        let unchanged = try store.catalogRevision()
        #expect(try store.insertIssue(issue) == .exists)
        var orphan = issue
        orphan.publicationId = "nowhere"
        #expect(try store.insertIssue(orphan) == .unknownPublication)
        #expect(try store.catalogRevision() == unchanged)

        let before = try store.catalogRevision()
        let retracted = try store.retractIssue(issue.ref, at: Fixtures.t0)
        #expect(retracted?.retractedAt == Fixtures.t0)
        #expect(try store.catalogRevision() > before)
        #expect(try store.loadCatalog().issues.first { $0.ref == issue.ref }?.state(at: Fixtures.t0) == .retracted)

        var corrected = issue
        corrected.title = "February 2012 (corrected)"
        corrected.assets = [Asset(path: "/content/monthly/2012-02/v2.pdf")]
        corrected.retractedAt = Fixtures.t0
        let stored = try store.updateIssue(corrected)
        #expect(stored != nil && stored?.retractedAt == nil)
        let reloaded = try store.loadCatalog().issues.first { $0.ref == issue.ref }
        #expect(reloaded?.title == "February 2012 (corrected)")
        #expect(reloaded?.assets == corrected.assets)
        #expect(reloaded?.state(at: Fixtures.t0) == .published)

        let missing = IssueRef(publicationId: "monthly", issueId: "1999-01")
        #expect(try store.retractIssue(missing, at: Fixtures.t0) == nil)
        var unknown = issue
        unknown.id = "1999-01"
        #expect(try store.updateIssue(unknown) == nil)
        #expect(try store.loadCatalog().issues.first { $0.ref == unknown.ref } == nil)
    }
}
