import Foundation
@testable import GatewayConfiguration
import Testing
import Wire
import GatewayTesting

/// `?limit=N` and `?after=<cursor>` on both issue lists, newest first, `next` while more remain
/// (http-api.md, "Reader lists are cheap to poll").
@Suite struct PaginationTests {
    /// Follows `next` from the first page; `between` runs after the first page.
    private func walk(_ h: H, _ path: String, as secret: String, limit: Int,
                      between: () throws -> Void = {}) throws -> (ids: [String], pages: Int) {
        var ids: [String] = [], pages = 0, after: String?
        let joiner = path.contains("?") ? "&" : "?"
        repeat {
            let target = path + joiner + "limit=\(limit)" + (after.map { "&after=\($0)" } ?? "")
            let page = try h.client.get(target, as: secret)
            try #require(page.status == 200, "\(target): \(page.text)")
            let items = page.objects("issues")
            #expect(items.count <= limit)
            ids += items.map { "\($0["publicationId"] as? String ?? "?")/\($0["id"] as? String ?? "?")" }
            after = page.json["next"] as? String
            #expect(after == nil || items.count == limit, "next only after a full page")
            pages += 1
            if pages == 1 { try between() }
        } while after != nil && pages < 1_000
        return (ids, pages)
    }

    private func whole(_ h: H, _ path: String, as secret: String) throws -> [String] {
        let response = try h.client.get(path, as: secret)
        #expect(response.json["next"] == nil, "no next without a limit")
        return response.objects("issues").map { "\($0["publicationId"] as? String ?? "?")/\($0["id"] as? String ?? "?")" }
    }

    @Test(arguments: ["", "?publication=monthly", "?publication=monthly&entitled=true"])
    func aReaderWalksTheWholeListWhileAnEditorPublishes(query: String) throws {
        let h = try H.withSampleCatalog()
        let reader = try h.createAccount()
        try h.subscribeFor15Years(reader.id)
        let path = "/v1/accounts/\(reader.id)/issues" + query
        let before = try whole(h, path, as: reader.token)
        #expect(before.count > 20)
        var published = false
        let walked = try walk(h, path, as: reader.token, limit: 7) {
            // Newest of all: lands before the cursor, which an offset would then repeat an issue for.
            let body = H.issueBody(id: "extra", publishedAt: "2026-02-28T00:00:00Z", paths: ["/content/monthly/extra/a.pdf"])
            published = try h.client.post("/v1/publications/monthly/issues", as: H.adminKey, json: body).status == 201
        }
        #expect(published)
        #expect(walked.ids == before, "every issue once, in order")
        #expect(walked.pages == (before.count + 6) / 7 || walked.pages == (before.count + 6) / 7 + 1)
    }

    @Test func theCatalogListWalksLikewise() throws {
        let h = try H.withSampleCatalog()
        let path = "/v1/publications/weekly/issues"
        let before = try whole(h, path, as: H.adminKey)
        let walked = try walk(h, path, as: H.adminKey, limit: 25) {
            let body = H.issueBody(id: "extra", publishedAt: "2026-02-28T00:00:00Z", paths: ["/content/weekly/extra/a.pdf"])
            let status = try h.client.post("/v1/publications/weekly/issues", as: H.adminKey, json: body).status
            #expect(status == 201)
        }
        #expect(walked.ids == before)
        #expect(Set(walked.ids).count == walked.ids.count)
        // A page that ends exactly at the list's end says nothing more remains; one item short, it does.
        let count = before.count + 1
        let exact = try h.client.get(path + "?limit=\(count)")
        #expect(exact.json["next"] == nil && exact.objects("issues").count == count)
        let short = try h.client.get(path + "?limit=\(count - 1)")
        #expect(short.json["next"] is String && short.objects("issues").count == count - 1)
    }

    @Test(arguments: ["limit=0", "limit=501", "limit=abc", "limit=", "limit=-1", "limit=5&limit=6", "after=", "after=%21%21",
                      "after=bm90LWEtY3Vyc29y", "limit=1e2"])
    func badPagesAre400(query: String) throws {
        let h = try H.withSampleCatalog()
        let reader = try h.createAccount()
        for path in ["/v1/accounts/\(reader.id)/issues?\(query)", "/v1/publications/monthly/issues?\(query)"] {
            // Twice: the second request would be the fast path's, which must leave it to the handler.
            for _ in 0..<2 {
                let response = try h.client.get(path, as: reader.token)
                #expect(response.status == 400, "\(path)")
                #expect(response.errorCode == "bad_request")
            }
        }
    }
}
