import Foundation
import Testing
import IssueCatalog

/// A small valid folder, as text, that each test breaks in one place.
private let products = """
    {"products": [
      {"id": "monthly.1m", "kind": "autoRenewable", "grants": ["monthly"], "subscriptionGroup": "g", "level": 1,
       "platform": "ios"},
      {"id": "monthly.3m", "kind": "nonRenewing", "grants": ["monthly"], "duration": "P3M"},
      {"id": "monthly.feb", "kind": "issue", "grants": ["monthly"],
       "issue": {"publicationId": "monthly", "issueId": "2012-02"}, "discontinuedAt": "2020-01-01T00:00:00Z"}
    ]}
    """
private let monthly = """
    {"id": "monthly", "title": "The Monthly", "issues": [
      {"id": "2012-02", "title": "February 2012", "publishedAt": "2012-02-01T00:00:00-05:00",
       "assets": [{"path": "/content/monthly/2012-02/issue.pdf", "bytes": 12,
                   "sha256": "0000000000000000000000000000000000000000000000000000000000000000"}]},
      {"id": "2012-01", "title": "January 2012", "publishedAt": "2012-01-01T00:00:00-05:00", "free": true,
       "retractedAt": "2013-01-01T00:00:00Z"}
    ]}
    """

private func files(products p: String = products, monthly m: String = monthly) -> [String: Data] {
    ["products.json": Data(p.utf8), "publications/monthly.json": Data(m.utf8)]
}

private func problem(_ files: [String: Data]) -> CatalogProblem? {
    do {
        _ = try CatalogFolder.decode(files)
        return nil
    } catch {
        return error
    }
}

@Suite struct CatalogFolderTests {
    @Test func readsAValidFolder() throws {
        let catalog = try CatalogFolder.decode(files())
        #expect(catalog.publications == [Publication(id: "monthly", title: "The Monthly")])
        #expect(catalog.issues.map(\.id) == ["2012-01", "2012-02"], "oldest first")
        #expect(catalog.issues[0].free && catalog.issues[0].retractedAt != nil)
        #expect(catalog.issues[1].publishedAt.rfc3339 == "2012-02-01T05:00:00.000Z")
        #expect(catalog.products.first { $0.id == "monthly.3m" }?.duration == ISODuration("P3M"))
    }

    @Test func exportThenImportRoundTripsExactly() throws {
        let catalog = try CatalogFolder.decode(files())
        let exported = CatalogFolder.encode(catalog)
        #expect(Set(exported.keys) == ["products.json", "publications/monthly.json"])
        let reimported = try CatalogFolder.decode(exported)
        #expect(reimported == catalog)
        #expect(CatalogFolder.encode(reimported) == exported, "export is byte-for-byte stable")
    }

    @Test(arguments: [
        ("\"id\": \"monthly.3m\"", "\"id\": \"monthly 3m\"", "products.json: products[1].id:"),
        ("\"duration\": \"P3M\"", "\"duration\": \"3 months\"", "products.json: products[1].duration:"),
        ("\"grants\": [\"monthly\"], \"duration\"", "\"grants\": [\"weekly\"], \"duration\"",
         "products.json: products[1].grants[0]: names unknown publication weekly"),
        ("\"issueId\": \"2012-02\"", "\"issueId\": \"2099-01\"", "products.json: products[2].issue:"),
        ("\"level\": 1", "\"level\": \"1\"", "products.json: products[0].level: must be an integer"),
        ("\"level\": 1", "\"level\": 1, \"duration\": \"P1M\"", "products.json: products[0].duration: does not apply"),
        ("\"kind\": \"nonRenewing\"", "\"kind\": \"rental\"", "products.json: products[1].kind:"),
        ("\"platform\": \"ios\"", "\"platfrom\": \"ios\"", "products.json: products[0].platfrom: is not a known field"),
    ])
    func refusesABadProductNamingFileAndField(original: String, replacement: String, expected: String) throws {
        #expect(products.contains(original))
        let found = try #require(problem(files(products: products.replacingOccurrences(of: original, with: replacement))))
        #expect(found.description.hasPrefix(expected), "\(found)")
    }

    @Test(arguments: [
        ("/content/monthly/2012-02/issue.pdf", "/content/../secret.pdf", "must not contain .."),
        ("/content/monthly/2012-02/issue.pdf", "/content//monthly/issue.pdf", "must not contain //"),
        ("/content/monthly/2012-02/issue.pdf", "/content/monthly/\\u0007.pdf", "must not contain control characters"),
        ("/content/monthly/2012-02/issue.pdf", "/content/a.pdf?x=1", "must not contain ?"),
        ("/content/monthly/2012-02/issue.pdf", "content/a.pdf", "must start with /"),
    ])
    func refusesABadAssetPath(original: String, replacement: String, message: String) throws {
        let found = try #require(problem(files(monthly: monthly.replacingOccurrences(of: original, with: replacement))))
        #expect(found.file == "publications/monthly.json")
        #expect(found.field == "issues[0].assets[0].path")
        #expect(found.message.hasSuffix(message), "\(found)")
    }

    @Test func refusesDuplicateIssueIds() throws {
        let duplicated = monthly.replacingOccurrences(of: "\"id\": \"2012-01\"", with: "\"id\": \"2012-02\"")
        let found = try #require(problem(files(monthly: duplicated)))
        #expect(found == CatalogProblem(file: "publications/monthly.json", field: "issues[1].id",
                                        message: "issue 2012-02 appears twice"))
    }

    @Test func refusesBadIdsInstantsAndMismatchedFileNames() throws {
        let badId = try #require(problem(files(monthly: monthly.replacingOccurrences(of: "\"2012-01\"", with: "\"2012/01\""))))
        #expect(badId.field == "issues[1].id")
        let badInstant = try #require(problem(files(monthly: monthly.replacingOccurrences(of: "2012-01-01T00:00:00-05:00", with: "2012-01-01"))))
        #expect(badInstant.field == "issues[1].publishedAt")
        let renamed = try #require(problem(["publications/weekly.json": Data(monthly.utf8)]))
        #expect(renamed.file == "publications/weekly.json" && renamed.field == "id")
        let notJSON = try #require(problem(files(monthly: "{")))
        #expect(notJSON.file == "publications/monthly.json" && notJSON.message == "is not valid JSON")
        let stray = try #require(problem(["notes.json": Data("{}".utf8)]))
        #expect(stray.file == "notes.json")
    }

    @Test func catalogValidationChecksCrossReferences() throws {
        var catalog = try CatalogFolder.decode(files())
        try catalog.validate()
        catalog.issues.append(Issue(publicationId: "ghost", id: "x", title: "X", publishedAt: Instant(secondsSinceEpoch: 0)))
        #expect(throws: CatalogProblem(field: "issues[2].publicationId", message: "names unknown publication ghost")) {
            try catalog.validate()
        }
    }
}
