import Foundation
@testable import GatewayConfiguration
import IssueCatalog
import Testing
import Wire
import GatewayTesting

/// The catalog routes of http-api.md over real sockets: who may change what, the answers' shapes,
/// and changes visible on the next request without a restart.
@Suite struct CatalogRouteTests {
    @Test func publicationsAreCreatedThenUpdatedAndListedToAnyone() throws {
        let h = try H()
        let created = try h.client.put("/v1/publications/monthly", as: H.adminKey, json: #"{"title":"The Monthly"}"#)
        #expect(created.status == 201)
        #expect(created.json["id"] as? String == "monthly")
        let updated = try h.client.put("/v1/publications/monthly", as: H.adminKey, json: #"{"title":"Monthly!","extra":1}"#)
        #expect(updated.status == 200)
        #expect(updated.json["title"] as? String == "Monthly!")
        let listed = try h.client.get("/v1/publications")
        #expect(listed.status == 200)
        #expect(listed.objects("publications").map { $0["title"] as? String } == ["Monthly!"])
    }

    @Test func productsHideDiscontinuedOnesUnlessAllIsAsked() throws {
        let h = try H()
        try h.seedCatalog()
        let current = try h.client.get("/v1/products")
        #expect(current.status == 200)
        #expect(current.objects("products").compactMap { $0["id"] as? String } == ["monthly.1m"])
        let all = try h.client.get("/v1/products?all=true")
        #expect(Set(all.objects("products").compactMap { $0["id"] as? String }) == ["monthly.1m", "monthly.old"])
        let old = all.objects("products").first { $0["id"] as? String == "monthly.old" }
        #expect(old?["discontinuedAt"] as? String == "2025-01-01T00:00:00.000Z")
        // Discontinuing later is a change like any other: seen on the next request.
        let discontinue = try h.client.put("/v1/products/monthly.1m", as: H.adminKey, json: """
            {"kind":"autoRenewable","grants":["monthly"],"subscriptionGroup":"monthly-group","level":1,
             "discontinuedAt":"2026-02-28T00:00:00+01:00"}
            """)
        #expect(discontinue.status == 200)
        #expect(discontinue.json["discontinuedAt"] as? String == "2026-02-27T23:00:00.000Z")
        #expect(try h.client.get("/v1/products").objects("products").isEmpty)
    }

    @Test func productBodiesAreCheckedStrictly() throws {
        let h = try H()
        try h.seedCatalog()
        let bad: [String] = [
            #"{"kind":"lifetime","grants":["monthly"]}"#,                       // unknown kind
            #"{"kind":"autoRenewable","grants":"monthly"}"#,                   // wrong type
            #"{"kind":"autoRenewable","grants":["monthly"],"level":"1","subscriptionGroup":"g"}"#,
            #"{"kind":"autoRenewable","grants":["monthly"],"level":99999999999999999999,"subscriptionGroup":"g"}"#,
            #"{"kind":"autoRenewable","grants":["monthly"],"level":1e400,"subscriptionGroup":"g"}"#,
            #"{"kind":"nonRenewing","grants":["monthly"],"duration":"three months"}"#,
            #"{"kind":"autoRenewable","grants":["nowhere"],"subscriptionGroup":"g","level":1}"#,
            #"{"kind":"issue","grants":["monthly"],"issue":{"publicationId":"monthly","issueId":"1999-01"}}"#,
            #"{"kind":"free","grants":["monthly"],"discontinuedAt":"yesterday"}"#,
            #"{"kind":"free""#,                                                // not JSON
            #"["free"]"#,                                                      // not an object
            #"{"kind":"free","kind":"issue"}"#,                                // duplicate name
        ]
        for body in bad {
            let response = try h.client.put("/v1/products/p1", as: H.adminKey, json: body)
            #expect(response.status == 400, "\(body) → \(response.status) \(response.text)")
            #expect(response.hasErrorShape, "\(body)")
        }
        let all = try h.client.get("/v1/products?all=true").objects("products")
        #expect(!all.contains { $0["id"] as? String == "p1" }, "an error never changes stored state")
    }

    /// http-api.md's field rule: a field of the wrong type is a 400 naming the field and the type
    /// it must have, whatever the type.
    @Test func aFieldOfTheWrongTypeIsNamedWithTheTypeItMustHave() throws {
        let h = try H()
        try h.seedCatalog()
        let product: [(body: String, message: String)] = [
            (#"{"kind":1,"grants":["monthly"]}"#, "kind must be a string"),
            (#"{"kind":"free","grants":"monthly"}"#, "grants must be an array of strings"),
            (#"{"kind":"free","grants":["monthly",1]}"#, "grants must be an array of strings"),
            (#"{"kind":"autoRenewable","grants":["monthly"],"level":"1","subscriptionGroup":"g"}"#, "level must be an integer"),
            (#"{"kind":"issue","grants":["monthly"],"issue":"monthly/2026-01"}"#, "issue must be an object"),
        ]
        for (body, message) in product {
            let response = try h.client.put("/v1/products/p1", as: H.adminKey, json: body)
            #expect(response.status == 400 && response.errorMessage == message, "\(body) → \(response.status) \(response.text)")
        }
        let issue: [(body: String, message: String)] = [
            (#"{"id":"x1","title":"T","publishedAt":"2026-03-01T00:00:00Z","free":"no"}"#, "free must be true or false"),
            (#"{"id":"x1","title":"T","publishedAt":"2026-03-01T00:00:00Z","assets":{"path":"/a"}}"#,
             "assets must be an array of objects"),
            (#"{"id":"x1","title":"T","publishedAt":"2026-03-01T00:00:00Z","assets":[{"path":"/a"},"/b"]}"#,
             "assets must be an array of objects"),
        ]
        for (body, message) in issue {
            let response = try h.client.post("/v1/publications/monthly/issues", as: H.adminKey, json: body)
            #expect(response.status == 400 && response.errorMessage == message, "\(body) → \(response.status) \(response.text)")
        }
    }

    @Test func issuesArePublishedWithConflictAndUnknownPublication() throws {
        let h = try H()
        try h.seedCatalog()
        let body = H.issueBody(id: "2026-03", publishedAt: "2026-03-01T00:00:00+02:00", paths: ["/content/monthly/2026-03/a.pdf"])
        let created = try h.client.post("/v1/publications/monthly/issues", as: H.adminKey, json: body)
        #expect(created.status == 201)
        #expect(created.json["publicationId"] as? String == "monthly")
        #expect(created.json["state"] as? String == "published")
        #expect(created.json["publishedAt"] as? String == "2026-02-28T22:00:00.000Z")
        let again = try h.client.post("/v1/publications/monthly/issues", as: H.adminKey, json: body)
        #expect(again.status == 409)
        #expect(again.errorCode == "conflict")
        let unknown = try h.client.post("/v1/publications/nowhere/issues", as: H.adminKey, json: body)
        #expect(unknown.status == 404)
        #expect(unknown.errorCode == "not_found")
        #expect(try h.client.get("/v1/publications/nowhere/issues").status == 404)
    }

    @Test func issueBodiesWithBadFieldsOrPathsAreRefused() throws {
        let h = try H()
        try h.seedCatalog()
        let badPaths = ["/content/../etc/passwd", "/content//x.pdf", "/content/x\\u0001.pdf", "/content/x.pdf?a=1",
                        "/content/x.pdf#top", "content/x.pdf", "/content/a\\\\b.pdf", "/content/./b.pdf", "/content/b/."]
        let badInstants = ["2026-03-01", "0000-01-01T00:00:00+01:00", "9999-12-31T23:59:59-05:00"]
        let bad: [String] = badPaths.map { H.issueBody(id: "x1", publishedAt: "2026-03-01T00:00:00Z", paths: [$0]) }
            + badInstants.map { H.issueBody(id: "x1", publishedAt: $0, paths: ["/content/b.pdf"]) } + [
            #"{"id":"x1","title":"T","publishedAt":"2026-03-01T00:00:00Z","free":"no"}"#,
            #"{"id":1,"title":"T","publishedAt":"2026-03-01T00:00:00Z"}"#,
            #"{"id":"x1","title":"T","publishedAt":"2026-03-01T00:00:00Z","assets":{"path":"/a"}}"#,
            #"{"id":"x1","title":"T","publishedAt":"2026-03-01T00:00:00Z","assets":[{"path":"/a","bytes":"1"}]}"#,
            #"{"id":"../x1","title":"T","publishedAt":"2026-03-01T00:00:00Z"}"#,
            #"{"title":"T","publishedAt":"2026-03-01T00:00:00Z"}"#,
        ]
        for body in bad {
            let response = try h.client.post("/v1/publications/monthly/issues", as: H.adminKey, json: body)
            #expect(response.status == 400, "\(body) → \(response.status) \(response.text)")
            #expect(response.hasErrorShape, "\(body)")
        }
        let listed = try h.client.get("/v1/publications/monthly/issues?include=all", as: H.adminKey).objects("issues")
        #expect(listed.count == 3, "no refused issue was stored")
        // The edges of what is accepted: a leap second, lower-case t and z, nanoseconds, a % in a name.
        for (id, publishedAt, path) in [("ok1", "9999-12-31T23:59:59+00:00", "/content/50%off.pdf"),
                                        ("ok2", "2026-01-01t00:00:00.123456789z", "/content/a.b.pdf"),
                                        ("ok3", "2016-12-31T23:59:60Z", "/content/.well/b.pdf")] {
            let response = try h.client.post("/v1/publications/monthly/issues", as: H.adminKey,
                                             json: H.issueBody(id: id, publishedAt: publishedAt, paths: [path]))
            #expect(response.status == 201, "\(id): \(response.text)")
            #expect(AccountRouteTests.isUTCMilliseconds(response.json["publishedAt"] as? String ?? ""), "\(id)")
        }
    }

    @Test func oversizedBodiesAre413AndTheServerKeepsServing() throws {
        let h = try H()
        try h.seedCatalog()
        let padding = String(repeating: "x", count: 2 << 20)
        let response = try h.client.put("/v1/publications/monthly", as: H.adminKey,
                                        json: #"{"title":"T","padding":"\#(padding)"}"#)
        #expect(response.status == 413)
        #expect(response.errorCode == "payload_too_large")
        #expect(try h.client.get("/healthz").status == 200)
        #expect(try h.client.get("/v1/publications").objects("publications").count == 2)
    }

    @Test func correctionRescheduleRetractAndRepublishAreSeenOnTheNextRequest() throws {
        let h = try H()
        try h.seedCatalog()
        let reader = try h.createAccount()
        func listed() throws -> [String] {
            try h.client.get("/v1/publications/monthly/issues").objects("issues").compactMap { $0["id"] as? String }
        }
        func readerListed() throws -> [String] {
            try h.client.get("/v1/accounts/\(reader.id)/issues?publication=monthly", as: reader.token)
                .objects("issues").compactMap { $0["id"] as? String }
        }
        #expect(try listed() == ["2026-02", "2026-01"], "published only, newest first")
        #expect(try readerListed() == ["2026-02", "2026-01"])

        // Correct the title: visible at once.
        let corrected = try h.client.put("/v1/publications/monthly/issues/2026-01", as: H.adminKey, json:
            H.issueBody(id: "2026-01", publishedAt: "2026-01-01T00:00:00Z", paths: H.paidPaths, title: "January, corrected"))
        #expect(corrected.status == 200)
        #expect(corrected.json["title"] as? String == "January, corrected")
        #expect(try h.client.get("/v1/publications/monthly/issues").objects("issues").last?["title"] as? String == "January, corrected")

        // Reschedule into the future: gone from readers' lists (E16).
        let rescheduled = try h.client.put("/v1/publications/monthly/issues/2026-01", as: H.adminKey, json:
            H.issueBody(id: "2026-01", publishedAt: "2026-05-01T00:00:00Z", paths: H.paidPaths))
        #expect(rescheduled.json["state"] as? String == "scheduled")
        #expect(try listed() == ["2026-02"])
        #expect(try readerListed() == ["2026-02"])

        // Retract: gone, and the answer says so.
        let retracted = try h.client.delete("/v1/publications/monthly/issues/2026-02", as: H.adminKey)
        #expect(retracted.status == 200)
        #expect(retracted.json["state"] as? String == "retracted")
        #expect(try listed() == [])
        #expect(try readerListed() == [])

        // Republish (a correction of a retracted issue clears the retraction).
        let republished = try h.client.put("/v1/publications/monthly/issues/2026-02", as: H.adminKey, json:
            H.issueBody(id: "2026-02", publishedAt: "2026-02-01T00:00:00Z", free: true, paths: ["/content/monthly/2026-02/issue.pdf"]))
        #expect(republished.status == 200)
        #expect(republished.json["state"] as? String == "published")
        #expect(try listed() == ["2026-02"])
        #expect(try readerListed() == ["2026-02"])

        // A scheduled issue appears once the clock reaches it, with no change made.
        h.clock.set(Instant(rfc3339: "2026-05-01T00:00:00Z")!)
        #expect(try listed() == ["2026-01", "2026-04", "2026-02"])
    }

    @Test func correctionsOfMissingIssuesOrMismatchedIdsAreRefused() throws {
        let h = try H()
        try h.seedCatalog()
        let body = H.issueBody(id: "2026-09", publishedAt: "2026-09-01T00:00:00Z", paths: ["/content/monthly/2026-09/a.pdf"])
        #expect(try h.client.put("/v1/publications/monthly/issues/2026-09", as: H.adminKey, json: body).status == 404)
        #expect(try h.client.put("/v1/publications/monthly/issues/2026-01", as: H.adminKey, json: body).status == 400)
        #expect(try h.client.delete("/v1/publications/monthly/issues/2026-09", as: H.adminKey).status == 404)
        #expect(try h.client.delete("/v1/publications/nowhere/issues/2026-01", as: H.adminKey).status == 404)
    }
}
