import Foundation
import Testing
import IssueCatalog
import Wire

/// The committed sample catalog (catalog/) is valid and shows what a sample must.
@Suite struct SampleCatalogTests {
    static let now = Instant(rfc3339: "2026-11-22T12:00:00Z")!

    static func load() throws -> Catalog {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("catalog")
        var files: [String: Data] = [:]
        files["products.json"] = try Data(contentsOf: root.appendingPathComponent("products.json"))
        for id in ["monthly", "weekly"] {
            files["publications/\(id).json"] = try Data(contentsOf: root.appendingPathComponent("publications/\(id).json"))
        }
        return try CatalogFolder.decode(files)
    }

    @Test func monthlyOnTheFirstAtMidnightEasternSince2012() throws {
        let snapshot = CatalogSnapshot(try Self.load())
        let issues = snapshot.issues(of: "monthly")
        #expect(issues.first?.id == "2012-01")
        #expect(issues.first?.publishedAt == Instant(rfc3339: "2012-01-01T05:00:00Z"), "EST")
        #expect(snapshot.issue(publicationId: "monthly", issueId: "2016-06")?.publishedAt
                == Instant(rfc3339: "2016-06-01T04:00:00Z"), "EDT")
        #expect(snapshot.issue(publicationId: "monthly", issueId: "2026-11")?.publishedAt
                == Instant(rfc3339: "2026-11-01T04:00:00Z"), "EDT still holds at midnight on 1 November")
        #expect(issues.filter { $0.state(at: Self.now) == .published }.count == 14 * 12 + 11)
        #expect(issues.filter { $0.state(at: Self.now) == .scheduled }.map(\.id) == ["2026-12"])
        #expect(issues.filter(\.free).map(\.id) == ["2026-01"])
        #expect(issues.allSatisfy { issue in issue.assets.first?.path == "/content/monthly/\(issue.id)/issue.pdf" })
    }

    @Test func weeklyEveryThursdayForThreeYears() throws {
        let snapshot = CatalogSnapshot(try Self.load())
        let issues = snapshot.issues(of: "weekly")
        let week: Int64 = 7 * 86_400_000
        #expect(issues.count == 157)
        #expect(issues.last?.id == "2026-11-19")
        #expect(issues.first.map { Self.now.millisecondsSinceEpoch - $0.publishedAt.millisecondsSinceEpoch <= 3 * 366 * 86_400_000 } == true)
        for (a, b) in zip(issues, issues.dropFirst()) {
            let gap = b.publishedAt.millisecondsSinceEpoch - a.publishedAt.millisecondsSinceEpoch
            #expect(abs(gap - week) <= 3_600_000, "one week apart, give or take a DST hour: \(a.id) → \(b.id)")
        }
        #expect(issues.filter { $0.state(at: Self.now) == .retracted }.map(\.id) == ["2024-07-04"])
    }

    @Test func productsCoverEveryKindAndRule() throws {
        let snapshot = CatalogSnapshot(try Self.load())
        let products = snapshot.products
        for kind in Product.Kind.allCases { #expect(products.contains { $0.kind == kind }, "\(kind)") }
        for platform in ["ios", "macos"] {
            let monthly = products.filter { $0.platform == platform && $0.kind == .autoRenewable && $0.grants == ["monthly"] }
            #expect(Set(monthly.compactMap(\.subscriptionGroup)) == ["monthly"])
            #expect(Set(monthly.compactMap(\.level)) == [1, 2], "monthly and annual levels")
        }
        #expect(snapshot.product("monthly.ios.3months")?.duration == ISODuration("P3M"))
        #expect(products.contains { Set($0.grants) == ["monthly", "weekly"] }, "a bundle")
        #expect(products.contains { $0.isDiscontinued(at: Self.now) })
        #expect(products.filter { $0.kind == .issue }.count >= 3)
    }

    /// E23: the same subscriptions sold on the web through Stripe: prices for both publications,
    /// the bundle and a single issue, each a Stripe price id.
    @Test func stripePricesForEveryPublication() throws {
        let snapshot = CatalogSnapshot(try Self.load())
        let web = snapshot.products.filter { $0.store == .stripe }
        for publication in ["monthly", "weekly"] {
            #expect(web.contains { $0.kind == .autoRenewable && $0.grants == [publication] }, "\(publication)")
        }
        #expect(web.contains { Set($0.grants) == ["monthly", "weekly"] }, "the bundle")
        #expect(web.contains { $0.kind == .issue })
        #expect(web.allSatisfy { $0.storeProductId.hasPrefix("price_") })
        #expect(snapshot.product(.stripe, storeProductId: "price_monthly_monthly")?.id == "monthly.web.monthly")
    }
}
