import Entitle
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import Wire
@testable import GatewayConfiguration
import GatewayTesting

/// `GET /v1/accounts/{accountId}/timeline.svg` (http-api.md, Support): the Guide's
/// magazine example drawn, valid and deterministic SVG, escaped titles, refusals.
@Suite struct TimelineRouteTests {
    /// The SVG's elements as an XML parser sees them: (name, attributes, text of its `<title>`).
    final class SVGElements: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String], title: String)] = []
        private var stack: [Int] = []
        private var inTitle = false

        static func parse(_ text: String) throws -> SVGElements {
            let collector = SVGElements()
            let parser = XMLParser(data: Data(text.utf8))
            parser.delegate = collector
            guard parser.parse() else { throw HarnessError.unexpected("not XML: \(String(describing: parser.parserError))") }
            return collector
        }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if name == "title" { inTitle = true; return }
            elements.append((name, attributes, ""))
            stack.append(elements.count - 1)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "title" { inTitle = false; return }
            stack.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inTitle, let owner = stack.last { elements[owner].title += string }
        }

        func withClass(_ name: String) -> [(name: String, attributes: [String: String], title: String)] {
            elements.filter { $0.attributes["class"] == name }
        }
    }

    /// The Guide's magazine (entitlement-rules.md's worked example): issues on the 1st of each
    /// month of 2012; subscribed 20 February, renewed 20 March, lapsed 20 April, back 17 June
    /// for a month; asked on 15 September.
    static func magazine(januaryTitle: String = "January 2012") throws -> (H, (id: String, token: String)) {
        let h = try H()
        #expect(try h.client.put("/v1/publications/mag", as: H.adminKey, json: #"{"title":"The <Magazine> & Co"}"#).status == 201)
        for month in 1...9 {
            let id = String(format: "2012-%02d", month)
            let body = H.issueBody(id: id, publishedAt: "\(id)-01T00:00:00Z", paths: ["/content/mag/\(id)/issue.pdf"],
                                   title: month == 1 ? januaryTitle : "Issue \(id)")
            #expect(try h.client.post("/v1/publications/mag/issues", as: H.adminKey, json: body).status == 201)
        }
        #expect(try h.client.put("/v1/products/monthly.sub", as: H.adminKey, json: """
            {"kind":"autoRenewable","grants":["mag"],"subscriptionGroup":"g","level":1,"platform":"ios"}
            """).status == 201)
        h.clock.set(Instant(rfc3339: "2012-09-15T00:00:00Z")!)
        let reader = try h.createAccount()
        func t(_ id: String, _ start: String, _ end: String) -> Transaction {
            Transaction(environment: .production, transactionId: id, originalTransactionId: "t1", productId: "monthly.sub",
                        purchaseDate: Instant(rfc3339: start + "T00:00:00Z")!, expiresDate: Instant(rfc3339: end + "T00:00:00Z")!,
                        source: .receipt)
        }
        try h.store(VerifiedFacts(transactions: [
            t("t1", "2012-02-20", "2012-03-20"), t("t2", "2012-03-20", "2012-04-20"), t("t3", "2012-06-17", "2012-07-17"),
        ]), for: reader.id)
        return (h, reader)
    }

    @Test func theGuidesMagazineShowsTwoPeriodsAndFiveEntitledIssues() throws {
        let (h, reader) = try Self.magazine()
        let answer = try h.client.get("/v1/accounts/\(reader.id)/timeline.svg", as: reader.token)
        #expect(answer.status == 200)
        #expect(answer.headers.first { $0.0.lowercased() == "content-type" }?.1.hasPrefix("image/svg+xml") == true)
        let svg = try SVGElements.parse(answer.text)
        #expect(svg.elements.first?.name == "svg")
        let bars = svg.withClass("bar active")
        #expect(bars.count == 2)
        #expect(bars.map(\.title) == ["active from 20 February 2012 until 20 April 2012", "active from 17 June 2012 until 17 July 2012"])
        let entitled = svg.withClass("issue entitled").compactMap { $0.title.firstMatch(of: /\((2012-\d\d)\)/)?.1 }.map(String.init)
        #expect(entitled == ["2012-02", "2012-03", "2012-04", "2012-06", "2012-07"])
        let refused = svg.withClass("issue not-entitled").map(\.title)
        #expect(refused.count == 4, "January, May, August, September")
        #expect(refused.first { $0.contains("(2012-05)") }?.hasSuffix("not entitled (notSubscribedWhenPublished)") == true)
        #expect(svg.withClass("today").count == 1)
        #expect(svg.elements.contains { $0.name == "text" } && answer.text.contains("The &lt;Magazine&gt; &amp; Co"))
        // Deterministic: the same facts at the same time are the same bytes.
        #expect(try h.client.get("/v1/accounts/\(reader.id)/timeline.svg", as: reader.token).body == answer.body)
    }

    @Test func anEditorsTitleStaysText() throws {
        let hostile = "<img src=x onerror=alert(1)>"
        let (h, reader) = try Self.magazine(januaryTitle: hostile)
        let answer = try h.client.get("/v1/accounts/\(reader.id)/timeline.svg?publication=mag", as: H.adminKey)
        #expect(answer.status == 200)
        #expect(!answer.text.contains("<img"))
        let svg = try SVGElements.parse(answer.text)
        #expect(!svg.elements.contains { $0.name == "img" })
        #expect(svg.elements.contains { $0.title.hasPrefix(hostile + " (2012-01)") })
    }

    @Test func fromAndToChooseTheWindowAndBadInputIsRefused() throws {
        let (h, reader) = try Self.magazine()
        let path = "/v1/accounts/\(reader.id)/timeline.svg"
        let narrow = try h.client.get(path + "?from=2012-03-15T00:00:00Z&to=2012-06-15T00:00:00Z", as: reader.token)
        let marks = try SVGElements.parse(narrow.text).elements.filter { $0.attributes["class"]?.hasPrefix("issue") == true }
        #expect(marks.map { $0.title.prefix(13) } == ["Issue 2012-04", "Issue 2012-05", "Issue 2012-06"])
        // A `to` alone, before the account's first period, is honoured: the year up to it.
        let early = try h.client.get(path + "?to=2011-06-01T00:00:00Z", as: reader.token)
        #expect(early.status == 200 && early.text.contains("1 June 2010 to 1 June 2011"), "\(early.text.prefix(600))")
        for query in ["from=yesterday", "to=2012-13-01T00:00:00Z", "from=2012-06-01T00:00:00Z&to=2012-05-01T00:00:00Z",
                      "from=1900-01-01T00:00:00Z&to=2100-01-01T00:00:00Z", "publication=mag&publication=mag"] {
            let answer = try h.client.get(path + "?" + query, as: reader.token)
            #expect(answer.status == 400 && answer.hasErrorShape, "\(query)")
        }
        #expect(try h.client.get(path + "?publication=nowhere", as: reader.token).status == 404)
        #expect(try h.client.get("/v1/accounts/acct-nobody/timeline.svg", as: H.adminKey).status == 404)
        let stranger = try h.createAccount()
        #expect(try h.client.get(path, as: stranger.token).status == 403)
        #expect(try h.client.get("/v1/accounts/\(stranger.id)/timeline.svg", as: stranger.token).status == 200,
                "an account holding nothing gets the catalog's first publication")
    }

    /// E16: a reader's own picture holds no scheduled or retracted issue (no title, no date);
    /// support staff's shows them with their reason.
    @Test func readersDoNotSeeScheduledOrRetractedIssues() throws {
        let h = try H()
        try h.seedCatalog()  // 2026-04 is scheduled at the harness's now
        #expect(try h.client.delete("/v1/publications/monthly/issues/2026-01", as: H.adminKey).status == 200)
        let reader = try h.createAccount()
        let path = "/v1/accounts/\(reader.id)/timeline.svg?publication=monthly&from=2025-12-01T00:00:00Z&to=2026-06-01T00:00:00Z"
        let titles = { (secret: String) in
            try SVGElements.parse(try h.client.get(path, as: secret).text).elements
                .filter { $0.attributes["class"]?.hasPrefix("issue") == true }.map(\.title)
        }
        let own = try titles(reader.token), staff = try titles(H.adminKey)
        #expect(!own.contains { $0.contains("(2026-04)") || $0.contains("(2026-01)") }, "\(own)")
        #expect(own.contains { $0.contains("(2026-02)") })
        #expect(staff.contains { $0.contains("(2026-04)") } && staff.contains { $0.contains("(2026-01)") }, "\(staff)")
    }

    @Test func aGrantIsABarLabelledGranted() throws {
        let (h, reader) = try Self.magazine()
        let grant = #"{"source":"print","externalId":"p1","publications":["mag"],"start":"2012-05-10T00:00:00Z","end":"2012-05-20T00:00:00Z"}"#
        #expect(try h.client.post("/v1/accounts/\(reader.id)/grants", as: H.adminKey, json: grant).status == 201)
        let svg = try SVGElements.parse(try h.client.get("/v1/accounts/\(reader.id)/timeline.svg", as: reader.token).text)
        #expect(svg.withClass("bar granted").map(\.title) == ["granted from 10 May 2012 until 20 May 2012"])
        let may = svg.elements.first { $0.title.contains("(2012-05)") }
        #expect(may?.attributes["class"] == "issue entitled" && may?.title.hasSuffix("(unlockedAtStart)") == true,
                "E21: the issue current at the grant's start")
    }
}
