import Entitle
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import IssueCatalog
import Testing
import Wire
@testable import GatewayConfiguration

/// The timeline picture's pure parts: the engine's timeline (bars of every kind), the SVG writer
/// (escaping, numbers), the axis step, and fifteen years of a weekly.
@Suite struct TimelineSVGTests {
    static func at(_ text: String) -> Instant { Instant(rfc3339: text)! }

    /// A weekly from 2011 to 2025 (783 issues) and a subscriber with paid years, a refunded
    /// renewal and a grace period at the end.
    static func weekly() -> AccountEntitlements {
        let first = at("2011-01-03T06:00:00Z")
        let issues = (0..<783).map { week in
            Issue(publicationId: "weekly", id: "w\(week)", title: "Week \(week)", publishedAt: first.adding(seconds: Int64(week) * 7 * 86_400),
                  assets: [Asset(path: "/content/weekly/w\(week).pdf")])
        }
        let catalog = Catalog(publications: [Publication(id: "weekly", title: "The Weekly")],
                              products: [Product(id: "weekly.1y", kind: .autoRenewable, grants: ["weekly"], subscriptionGroup: "g",
                                                 level: 1, platform: "ios")],
                              issues: issues)
        func t(_ id: String, _ start: String, _ end: String, refunded: Bool = false) -> Transaction {
            Transaction(environment: .production, transactionId: id, originalTransactionId: "y0", productId: "weekly.1y",
                        purchaseDate: at(start + "T00:00:00Z"), expiresDate: at(end + "T00:00:00Z"),
                        revocationDate: refunded ? at(start + "T12:00:00Z") : nil, source: .receipt)
        }
        let transactions = [t("y0", "2012-05-01", "2013-05-01"), t("y1", "2013-05-01", "2014-05-01"),
                            t("y2", "2014-05-01", "2015-05-01", refunded: true), t("y3", "2018-01-10", "2019-01-10"),
                            t("y4", "2019-01-10", "2020-01-10")]
        let renewal = RenewalInfo(environment: .production, originalTransactionId: "y0", autoRenewStatus: true,
                                  isInBillingRetry: true, gracePeriodExpiresDate: at("2020-01-26T00:00:00Z"), source: .receipt)
        return EntitlementEngine.evaluate(catalog: CatalogSnapshot(catalog),
                                          facts: AccountFacts(transactions: transactions, renewals: [renewal]),
                                          policy: EntitlementPolicy(), now: at("2025-12-20T00:00:00Z"))
    }

    @Test func theEnginesTimelineHasBarsOfEveryKindItHolds() throws {
        let timeline = try #require(Self.weekly().timeline(of: "weekly"))
        #expect(timeline.bars.map(\.kind) == [.active, .refunded, .active, .grace])
        #expect(timeline.bars[0].start == Self.at("2012-05-01T00:00:00Z") && timeline.bars[0].end == Self.at("2014-05-01T00:00:00Z"))
        #expect(timeline.bars[3].start == Self.at("2020-01-10T00:00:00Z") && timeline.bars[3].end == Self.at("2020-01-26T00:00:00Z"))
        // A month around the first period and now, in whole months.
        #expect(timeline.from == Self.at("2012-03-01T00:00:00Z") && timeline.to == Self.at("2026-02-01T00:00:00Z"))
        #expect(timeline.marks.count == 783 - 61, "every issue from March 2012 on")
        #expect(Self.weekly().touchedPublications == ["weekly"])
        #expect(Self.weekly().timeline(of: "nowhere") == nil)
    }

    @Test func fifteenYearsOfAWeeklyStayReadableAndTheSameBytes() throws {
        let timeline = try #require(Self.weekly().timeline(of: "weekly", from: Self.at("2011-01-01T00:00:00Z")))
        let svg = TimelineSVG.render(timeline, publicationTitle: "The Weekly", accountId: "acct-1")
        #expect(svg == TimelineSVG.render(timeline, publicationTitle: "The Weekly", accountId: "acct-1"))
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse())
        let marks = svg.split(separator: "\n").filter { $0.contains(#"class="issue "#) }
        #expect(marks.count == 783)
        // Each mark is thinner than the gap between two weeks, so none touch.
        let spacing = TimelineSVG.Layout.plotWidth / Double(Self.at("2026-02-01T00:00:00Z").millisecondsSinceEpoch
            - Self.at("2011-01-01T00:00:00Z").millisecondsSinceEpoch) * 7 * 86_400_000
        let width = try #require(marks.first.flatMap { $0.firstMatch(of: /width="([0-9.]+)"/) }.flatMap { Double($0.1) })
        #expect(width < spacing && width >= TimelineSVG.Layout.markWidths.lowerBound)
        // The axis labels years, not months.
        let labels = TimeAxis(from: timeline.from, to: timeline.to).ticks.compactMap(\.label)
        #expect(labels == (2011...2026).map(String.init))
        #expect(svg.utf8.count < 250_000)
    }

    @Test func theAxisStepFollowsTheSpan() {
        let months = TimeAxis(from: Self.at("2012-01-15T00:00:00Z"), to: Self.at("2012-05-01T00:00:00Z")).ticks
        #expect(months.map(\.label) == ["Feb 2012", "Mar", "Apr"])
        let quarters = TimeAxis(from: Self.at("2012-01-01T00:00:00Z"), to: Self.at("2016-01-01T00:00:00Z")).ticks
        #expect(quarters.count == 16 && quarters.compactMap(\.label) == ["2012", "2013", "2014", "2015"])
        let century = TimeAxis(from: Self.at("1900-01-01T00:00:00Z"), to: Self.at("2000-01-01T00:00:00Z")).ticks
        #expect(century.compactMap(\.label) == stride(from: 1900, to: 2000, by: 5).map(String.init))
    }

    @Test func textIsEscapedAndNumbersHaveOneDecimal() {
        #expect(SVGWriter.escape(#"<img src=x onerror="alert('1')"> & co"#)
            == "&lt;img src=x onerror=&quot;alert(&apos;1&apos;)&quot;&gt; &amp; co")
        #expect(SVGWriter.escape("bell\u{7}tab\t") == "bell tab\t")
        #expect([12.25, 12.0, -0.04, -3.46, 0.5].map(SVGWriter.number) == ["12.3", "12", "0", "-3.5", "0.5"])
    }
}
