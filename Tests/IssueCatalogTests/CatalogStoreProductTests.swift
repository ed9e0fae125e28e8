import Foundation
import Testing
import IssueCatalog

/// Vocabulary, Product: `store` (default `appStore`) and `storeProductId` (default: `id`), the
/// pair unique in the catalog, read and written in the folder (http-api.md, "Google Play and Stripe").
@Suite struct CatalogStoreProductTests {
    static let publication = #"{"id": "monthly", "title": "The Monthly", "issues": []}"#

    static func folder(_ products: String) -> [String: Data] {
        ["products.json": Data(#"{"products": [\#(products)]}"#.utf8), "publications/monthly.json": Data(publication.utf8)]
    }

    static let apple = #"{"id": "monthly.ios", "storeProductId": "monthly", "kind": "free", "grants": ["monthly"]}"#
    static let play = #"{"id": "monthly.play", "store": "googlePlay", "storeProductId": "monthly", "kind": "free", "grants": ["monthly"]}"#
    static let stripe = #"{"id": "price_1Mo", "store": "stripe", "kind": "free", "grants": ["monthly"]}"#

    @Test func readsStoreFieldsWithTheirDefaults() throws {
        let catalog = try CatalogFolder.decode(Self.folder([Self.apple, Self.play, Self.stripe].joined(separator: ",")))
        let byId = Dictionary(uniqueKeysWithValues: catalog.products.map { ($0.id, $0) })
        #expect(byId["monthly.ios"]?.store == .appStore && byId["monthly.ios"]?.storeProductId == "monthly")
        #expect(byId["monthly.play"]?.store == .googlePlay && byId["monthly.play"]?.storeProductId == "monthly")
        #expect(byId["price_1Mo"]?.store == .stripe && byId["price_1Mo"]?.storeProductId == "price_1Mo")
        let snapshot = CatalogSnapshot(catalog)
        #expect(snapshot.product(.appStore, storeProductId: "monthly")?.id == "monthly.ios")
        #expect(snapshot.product(.googlePlay, storeProductId: "monthly")?.id == "monthly.play")
        #expect(snapshot.product(.stripe, storeProductId: "monthly") == nil)
    }

    @Test func writesStoreFieldsOnlyWhenNotTheDefaultAndRoundTrips() throws {
        let catalog = try CatalogFolder.decode(Self.folder([Self.apple, Self.play, Self.stripe].joined(separator: ",")))
        let exported = CatalogFolder.encode(catalog)
        let text = String(decoding: try #require(exported["products.json"]), as: UTF8.self)
        #expect(text.components(separatedBy: "\"store\"").count == 3, "googlePlay and stripe only: \(text)")
        #expect(text.components(separatedBy: "\"storeProductId\"").count == 3, "the two that differ from id: \(text)")
        #expect(try CatalogFolder.decode(exported) == catalog)
    }

    @Test func refusesTwoProductsOfOneStoreId() throws {
        let twin = #"{"id": "monthly.ios2", "storeProductId": "monthly", "kind": "free", "grants": ["monthly"]}"#
        #expect(throws: CatalogProblem(file: "products.json", field: "products[2].storeProductId",
                                       message: "appStore product monthly is already product monthly.ios")) {
            try CatalogFolder.decode(Self.folder([Self.apple, Self.play, twin].joined(separator: ",")))
        }
        var catalog = try CatalogFolder.decode(Self.folder(Self.apple))
        catalog.products.append(Product(id: "other", storeProductId: "monthly", kind: .free, grants: ["monthly"]))
        #expect(throws: CatalogProblem(field: "products[1].storeProductId",
                                       message: "appStore product monthly is already product monthly.ios")) {
            try catalog.validate()
        }
    }

    @Test func refusesAnUnknownStoreAndABadStoreProductId() throws {
        let unknownStore = Self.folder(Self.play.replacingOccurrences(of: "googlePlay", with: "amazon"))
        let badId = Self.folder(Self.apple.replacingOccurrences(of: "\"storeProductId\": \"monthly\"",
                                                                with: "\"storeProductId\": \"a b\""))
        for (files, field, ending) in [(unknownStore, "products[0].store", "appStore, googlePlay, stripe"),
                                       (badId, "products[0].storeProductId", "(not . or ..)")] {
            do {
                _ = try CatalogFolder.decode(files)
                Testing.Issue.record("accepted; expected a problem at \(field)")
            } catch {
                #expect(error.file == "products.json" && error.field == field && error.message.hasSuffix(ending), "\(error)")
            }
        }
    }
}
