import Foundation
@testable import GatewayConfiguration
import Testing
import GatewayTesting

/// http-api.md, "Google Play and Stripe": a product names its `store` and `storeProductId`
/// (defaults `appStore` and its own id), and one store id names one catalog product.
@Suite struct ProductStoreRouteTests {
    static let playBody = #"{"kind":"free","grants":["monthly"],"store":"googlePlay","storeProductId":"monthly.1m"}"#

    @Test func aProductAnswersItsStoreFieldsWithTheirDefaults() throws {
        let h = try H()
        try h.seedCatalog()
        let apple = try #require(try h.client.get("/v1/products").objects("products").first { $0["id"] as? String == "monthly.1m" })
        #expect(apple["store"] as? String == "appStore" && apple["storeProductId"] as? String == "monthly.1m")
        // The same store id in another store is another product.
        let play = try h.client.put("/v1/products/monthly.1m.play", as: H.adminKey, json: Self.playBody)
        #expect(play.status == 201, "\(play.text)")
        #expect(play.json["store"] as? String == "googlePlay" && play.json["storeProductId"] as? String == "monthly.1m")
        let listed = try h.client.get("/v1/products").objects("products").first { $0["id"] as? String == "monthly.1m.play" }
        #expect(listed?["store"] as? String == "googlePlay" && listed?["storeProductId"] as? String == "monthly.1m")
    }

    @Test func aSecondProductForOneStoreIdIsAConflictAndChangesNothing() throws {
        let h = try H()
        try h.seedCatalog()
        let twin = try h.client.put("/v1/products/monthly.twin", as: H.adminKey,
                                    json: #"{"kind":"free","grants":["monthly"],"storeProductId":"monthly.1m"}"#)
        #expect(twin.status == 409 && twin.errorCode == "conflict", "\(twin.status) \(twin.text)")
        #expect(!(try h.client.get("/v1/products?all=true").objects("products").contains { $0["id"] as? String == "monthly.twin" }))
        // A product may keep its own store id when it changes.
        let same = try h.client.put("/v1/products/monthly.1m", as: H.adminKey, json: """
            {"kind":"autoRenewable","grants":["monthly"],"subscriptionGroup":"monthly-group","level":2,"storeProductId":"monthly.1m"}
            """)
        #expect(same.status == 200, "\(same.text)")
    }

    @Test func anUnknownStoreIsABadRequest() throws {
        let h = try H()
        try h.seedCatalog()
        let response = try h.client.put("/v1/products/p1", as: H.adminKey,
                                        json: #"{"kind":"free","grants":["monthly"],"store":"amazon"}"#)
        #expect(response.status == 400 && response.hasErrorShape, "\(response.text)")
    }
}
