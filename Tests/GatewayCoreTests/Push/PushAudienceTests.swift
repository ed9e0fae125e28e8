@testable import GatewayConfiguration
import IssueCatalog
import Testing
import Wire

/// Who may hold a new issue is found through transactions, which name products by their store's id.
@Suite struct PushAudienceTests {
    @Test func theAudienceNamesProductsByTheirStoreIds() {
        let issue = Issue(publicationId: "monthly", id: "2026-03", title: "March",
                          publishedAt: Instant(rfc3339: "2026-03-01T00:00:00Z")!)
        let catalog = Catalog(
            publications: [Publication(id: "monthly", title: "The Monthly"), Publication(id: "weekly", title: "The Weekly")],
            products: [
                Product(id: "monthly.ios", storeProductId: "monthly.1m", kind: .free, grants: ["monthly"]),
                Product(id: "monthly.play", store: .googlePlay, storeProductId: "monthly.1m", kind: .free, grants: ["monthly"]),
                Product(id: "monthly.web", store: .stripe, storeProductId: "price_1Mo", kind: .free, grants: ["monthly"]),
                Product(id: "weekly.ios", kind: .free, grants: ["weekly"]),
            ],
            issues: [issue])
        let audience = PushFanOut.audience(of: issue, CatalogSnapshot(catalog))
        #expect(audience.productIds == ["monthly.1m", "price_1Mo"])
        #expect(audience.publicationId == "monthly" && !audience.everyone)
    }
}
