import Testing
import Entitle
import IssueCatalog
import Wire

/// E1 as amended and E23: a fact's store is part of its identity, and transactions find their
/// catalog product through (store, storeProductId).
@Suite struct RuleStoreTests {
    /// An App Store product and a Play product sold under the same store id `x`, granting
    /// different publications.
    static let catalog = Catalog(
        publications: [Publication(id: "mag", title: "The Magazine"), Publication(id: "news", title: "The News")],
        products: [
            Product(id: "x.ios", storeProductId: "x", kind: .autoRenewable, grants: ["mag"], subscriptionGroup: "g", level: 1),
            Product(id: "x.play", store: .googlePlay, storeProductId: "x", kind: .autoRenewable, grants: ["news"],
                    subscriptionGroup: "g", level: 1),
        ],
        issues: Fx.monthlyIssues("mag", year: 2012, months: 1...12) + Fx.monthlyIssues("news", year: 2012, months: 1...12))

    static func tx(_ store: Store, _ id: String, original: String = "o1", _ start: String, _ end: String) -> Transaction {
        var t = Fx.tx(id, "x", start, end, original: original)
        t.store = store
        return t
    }

    @Test func e1SameIdAndEnvironmentInTwoStoresAreTwoTransactions() {
        let apple = Self.tx(.appStore, "t1", "2012-02-20", "2012-03-20")
        let play = Self.tx(.googlePlay, "t1", "2012-02-20", "2012-03-20")
        #expect(apple.key != play.key)
        #expect(apple.subscriptionKey != play.subscriptionKey)
        #expect(TransactionMerge.mergeAll([apple, play, apple]).map(\.store) == [.appStore, .googlePlay])
    }

    @Test func e23ATransactionNamesTheProductOfItsOwnStore() {
        let play = Self.tx(.googlePlay, "t1", "2012-02-20", "2012-04-20")
        let e = Fx.evaluate(Self.catalog, [play], now: "2012-09-15")
        #expect(e.entitledIds("news") == ["2012-02", "2012-03", "2012-04"])  // E12, E13
        #expect(e.entitledIds("mag").isEmpty)
        #expect(e.subscriptions.map(\.store) == [.googlePlay])
        #expect(CatalogSnapshot(Self.catalog).product(of: play)?.id == "x.play")
    }

    @Test func e1OneSubscriptionIdInTwoStoresIsTwoSubscriptions() {
        let apple = Self.tx(.appStore, "a1", "2012-02-20", "2012-03-20")
        let play = Self.tx(.googlePlay, "p1", "2012-05-20", "2012-06-20")
        let e = Fx.evaluate(Self.catalog, [play, apple], now: "2012-09-15")
        #expect(e.subscriptions.map(\.store) == [.appStore, .googlePlay])
        #expect(e.entitledIds("mag") == ["2012-02", "2012-03"])
        #expect(e.entitledIds("news") == ["2012-05", "2012-06"])
    }

    /// E25 with E1: a period Google reported wins over one the gateway built from snapshots, in
    /// either order, while the newer description still brings the rest (a revocation).
    @Test func e25AReportedPeriodWinsOverABuiltOneInAnyOrder() {
        let reported = Fx.tx("GPA.1", "x", "2012-02-20", "2012-03-20", observed: "2012-02-20")
        var built = Fx.tx("GPA.1", "x", "2012-02-22", "2012-03-25", revoked: "2012-03-01", kind: .void, observed: "2012-03-01")
        built.periodBuilt = true
        for merged in [TransactionMerge.merge(reported, built), TransactionMerge.merge(built, reported)] {
            #expect(merged.purchaseDate == reported.purchaseDate && merged.expiresDate == reported.expiresDate)
            #expect(!merged.periodBuilt && merged.revocationDate == built.revocationDate)
        }
        var later = built
        later.expiresDate = Fx.at("2012-03-30")
        later.observedAt = Fx.at("2012-03-05")
        #expect(TransactionMerge.merge(built, later).expiresDate == later.expiresDate)
    }

    @Test func aProductWithoutStoreFieldsIsTheAppStoreProductOfItsId() {
        let product = Product(id: "monthly.sub", kind: .free, grants: ["mag"])
        #expect(product.store == .appStore && product.storeProductId == "monthly.sub")
    }
}
