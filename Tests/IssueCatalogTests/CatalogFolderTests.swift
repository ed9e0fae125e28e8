import Foundation
import Testing
import IssueCatalog
import Wire

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

private let asset = "/content/monthly/2012-02/issue.pdf"

private func files(products p: String = products, monthly m: String = monthly) -> [String: Data] {
    ["products.json": Data(p.utf8), "publications/monthly.json": Data(m.utf8)]
}

/// The problem the folder has once `original` (which must be there) is replaced in one file.
private func problem(replacing original: String, with replacement: String, inProducts: Bool) -> CatalogProblem? {
    let text = inProducts ? products : monthly
    #expect(text.contains(original))
    let changed = text.replacingOccurrences(of: original, with: replacement)
    return problem(inProducts ? files(products: changed) : files(monthly: changed))
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

    /// (file, original text, replacement, field, what the message ends with)
    @Test(arguments: [
        ("products.json", "\"id\": \"monthly.3m\"", "\"id\": \"monthly 3m\"", "products[1].id", "(not . or ..)"),
        ("products.json", "\"id\": \"monthly.3m\"", "\"id\": \"..\"", "products[1].id", "(not . or ..)"),
        ("products.json", "\"duration\": \"P3M\"", "\"duration\": \"3 months\"", "products[1].duration", "such as P3M"),
        ("products.json", "\"grants\": [\"monthly\"], \"duration\"", "\"grants\": [\"weekly\"], \"duration\"",
         "products[1].grants[0]", "names unknown publication weekly"),
        ("products.json", "\"issueId\": \"2012-02\"", "\"issueId\": \"2099-01\"", "products[2].issue",
         "names unknown issue 2099-01 of monthly"),
        ("products.json", "\"level\": 1", "\"level\": \"1\"", "products[0].level", "must be an integer"),
        ("products.json", "\"level\": 1", "\"level\": 1, \"duration\": \"P1M\"", "products[0].duration",
         "does not apply to autoRenewable products"),
        ("products.json", "\"kind\": \"nonRenewing\"", "\"kind\": \"rental\"", "products[1].kind", "issue, free"),
        ("products.json", "\"platform\": \"ios\"", "\"platfrom\": \"ios\"", "products[0].platfrom", "is not a known field"),
        ("publications/monthly.json", asset, "/content/../secret.pdf", "issues[0].assets[0].path", "must not contain .."),
        ("publications/monthly.json", asset, "/content//monthly/issue.pdf", "issues[0].assets[0].path", "must not contain //"),
        ("publications/monthly.json", asset, "/content/monthly/\\u0007.pdf", "issues[0].assets[0].path",
         "must not contain control characters"),
        ("publications/monthly.json", asset, "/content/a.pdf?x=1", "issues[0].assets[0].path", "must not contain ?"),
        ("publications/monthly.json", asset, "/content/./a.pdf", "issues[0].assets[0].path", "must not contain . segments"),
        ("publications/monthly.json", asset, "/content/a\\\\b.pdf", "issues[0].assets[0].path", "must not contain a backslash"),
        ("publications/monthly.json", asset, "content/a.pdf", "issues[0].assets[0].path", "must start with /"),
    ])
    func refusesABadValueNamingFileAndField(file: String, original: String, replacement: String, field: String,
                                            message: String) throws {
        let found = try #require(problem(replacing: original, with: replacement, inProducts: file == "products.json"))
        #expect(found.file == file)
        #expect(found.field == field)
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
