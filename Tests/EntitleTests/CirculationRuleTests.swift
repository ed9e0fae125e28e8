import Testing
import Entitle
import IssueCatalog
import Wire

/// E36's basis, store and transaction for one account and one issue, from the report's evidence.
@Suite struct CirculationRuleTests {
    static let catalog = Catalog(
        publications: [Publication(id: "mag", title: "Mag"), Publication(id: "news", title: "News")],
        products: [
            Fx.autoRenewable("mag.sub", grants: ["mag"]),
            Product(id: "mag.play", store: .googlePlay, storeProductId: "play.sub", kind: .autoRenewable, grants: ["mag"],
                    subscriptionGroup: "group", level: 1),
            Product(id: "mag.web", store: .stripe, storeProductId: "price_1", kind: .autoRenewable, grants: ["mag"],
                    subscriptionGroup: "group", level: 1),
            Fx.autoRenewable("bundle.sub", grants: ["mag", "news"]),
        ],
        issues: Fx.monthlyIssues("mag", year: 2012, months: 1...12) + Fx.monthlyIssues("news", year: 2012, months: 1...12))

    func decide(_ transactions: [Transaction], renewals: [RenewalInfo] = [], grants: [Grant] = [],
                in publication: String = "mag", _ issue: String, now: String = "2013-01-01",
                policy: EntitlementPolicy = .default) -> CirculationEvidence? {
        let prepared = EntitlementCatalog(CatalogSnapshot(Self.catalog))
        let evidence = CirculationDerivation.evidence(
            catalog: prepared, facts: AccountFacts(transactions: transactions, renewals: renewals, grants: grants), policy: policy)
        let window = prepared.circulationWindow(of: IssueRef(publicationId: publication, issueId: issue), asOf: Fx.at(now))
        return window?.deciding(evidence.filter { $0.publicationId == publication })
    }

    func tx(_ id: String, _ store: Store, _ product: String, _ start: String, _ end: String, original: String,
            trial: Bool = false) -> Transaction {
        var t = Fx.tx(id, product, start, end, original: original, offer: trial ? .freeTrial : nil)
        t.store = store
        return t
    }

    @Test func e36PaidComesBeforeTrialAndTrialsOfEveryStoreCount() {
        // Apple's free-trial offer, a Google Play free-trial phase and a Stripe line of amount 0
        // all arrive as offer `freeTrial` (AppStoreKit, PlayFacts, StripeFacts).
        for (store, product) in [(Store.appStore, "mag.sub"), (.googlePlay, "play.sub"), (.stripe, "price_1")] {
            let trial = tx("t", store, product, "2012-03-10", "2012-04-10", original: "o-\(store)", trial: true)
            #expect(decide([trial], "2012-04")?.basis == .trial)
            #expect(decide([trial], "2012-03")?.store == store, "unlocked at the trial's start (E13)")
        }
        let trial = tx("t1", .appStore, "mag.sub", "2012-03-10", "2012-04-10", original: "a", trial: true)
        let paid = tx("t2", .stripe, "price_1", "2012-03-20", "2012-05-10", original: "b")
        #expect(decide([trial, paid], "2012-04")?.basis == .paid)
        #expect(decide([trial, paid], "2012-04")?.productId == "mag.web", "the catalog product id")
        // March is unlocked by the stretch the trial began; the paid purchase inside it unlocks nothing.
        #expect(decide([trial, paid], "2012-03")?.basis == .trial)
    }

    @Test func e36TheStoreIsThatOfTheSubscriptionBegunFirstTiesByStoreNameThenId() {
        let play = tx("g1", .googlePlay, "play.sub", "2012-02-05", "2012-06-05", original: "GPA.1")
        let apple = tx("a1", .appStore, "mag.sub", "2012-02-05", "2012-06-05", original: "9")
        let earlierWeb = tx("s1", .stripe, "price_1", "2012-02-04", "2012-06-05", original: "sub_1")
        #expect(decide([play, apple], "2012-04")?.store == .appStore, "same instant: appStore before googlePlay")
        #expect(decide([play, apple, earlierWeb], "2012-04")?.store == .stripe, "began first")
        let apple2 = tx("a2", .appStore, "mag.sub", "2012-02-05", "2012-06-05", original: "10")
        #expect(decide([apple2, apple], "2012-04")?.subscriptionId == "10", "byte order of originalTransactionId")
        // A subscription begins at its first transaction, a trial included.
        let trialStart = tx("a3", .appStore, "mag.sub", "2012-01-10", "2012-02-01", original: "11", trial: true)
        let renewal = tx("a4", .appStore, "mag.sub", "2012-02-01", "2012-06-05", original: "11")
        #expect(decide([play, trialStart, renewal], "2012-04")?.subscriptionId == "11")
    }

    @Test func e36RefundsGraceAndUnlockAtStart() {
        let paid = tx("1", .appStore, "mag.sub", "2012-02-20", "2012-03-20", original: "o")
        #expect(decide([paid], "2012-02")?.basis == .paid, "unlocked at its start (E13)")
        #expect(decide([paid], "2012-01") == nil)
        var refunded = paid
        refunded.revocationDate = Fx.at("2012-03-01")
        #expect(decide([refunded], "2012-03") == nil, "a refund since: never bought (E6)")
        // E8: grace after the last expiry entitles with the transaction whose end it follows.
        let grace = Fx.renewal("o", product: "mag.sub", billingRetry: true, grace: "2012-04-10")
        let inGrace = decide([paid], renewals: [grace], "2012-04")
        #expect(inGrace?.basis == .paid && inGrace?.subscriptionId == "o")
    }

    @Test func e36PrintAndGrantsAfterStoresAndBundlesInEachPublication() {
        let print = Grant(grantId: "g-print", accountId: "a", source: "print", externalId: "mag:1", publications: ["mag"],
                          start: Fx.at("2012-01-15"), end: nil, createdAt: Fx.at("2012-01-15"))
        var comp = print
        comp.grantId = "g-comp"; comp.source = "newsroom"; comp.start = Fx.at("2012-01-10")
        #expect(decide([], grants: [print, comp], "2012-05")?.basis == .print)
        #expect(decide([], grants: [comp], "2012-05")?.subscriptionId == "g-comp")
        let trial = tx("t", .appStore, "mag.sub", "2012-04-10", "2012-06-10", original: "o", trial: true)
        #expect(decide([trial], grants: [print], "2012-05")?.basis == .trial)
        let bundle = tx("b", .appStore, "bundle.sub", "2012-03-10", "2012-06-10", original: "bun")
        #expect(decide([bundle], in: "mag", "2012-04")?.productId == "bundle.sub")
        #expect(decide([bundle], in: "news", "2012-04")?.productId == "bundle.sub")
    }
}
