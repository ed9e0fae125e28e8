import Foundation
@testable import GatewayConfiguration
import HTTPServer
import Testing
import Wire
import GatewayTesting

/// JSON answers over 1 KiB are gzip-coded when `Accept-Encoding` allows it, with
/// `Vary: Accept-Encoding` (http-api.md, "Reader lists are cheap to poll"; RFC 9110 §12.5.3).
@Suite struct GzipTests {
    /// The goal was 5x; on the sample catalog gzip reaches about 4x and no more: every item
    /// carries two SHA-256 digests in hex (http-api.md, Issue list item), random to a compressor,
    /// and they alone gzip to ~12.7 KiB of the ~19 KiB (docs/decisions/18-gzip-in-api-layer.md).
    @Test func theFifteenYearListIsAtLeastFourTimesSmallerGzipped() throws {
        let (h, reader, path, plain) = try Self.fifteenYearList()
        #expect(plain.status == 200 && plain.header("Content-Encoding") == nil)
        #expect(plain.header("Vary") == "Accept-Encoding")
        #expect(plain.objects("issues").count > 150)
        // Asked twice: the second answer is the compressed body kept by its tag, on the fast path.
        for _ in 0..<2 {
            let coded = try h.client.get(path, as: reader.token, headers: [("Accept-Encoding", "gzip, deflate, br")])
            #expect(coded.status == 200)
            #expect(coded.header("Content-Encoding") == "gzip")
            #expect(coded.header("Vary") == "Accept-Encoding")
            #expect(coded.decodedBody == plain.body, "the same list")
            let ratio = Double(plain.body.count) / Double(coded.body.count)
            #expect(ratio >= 4, "\(plain.body.count) bytes gzipped to \(coded.body.count) (\(ratio)x)")
            // A different representation, so a different strong tag; each is current.
            let codedTag = try #require(coded.header("ETag"))
            #expect(codedTag != plain.header("ETag"))
            let again = try h.client.get(path, as: reader.token, headers: [("Accept-Encoding", "gzip"), ("If-None-Match", codedTag)])
            #expect(again.status == 304 && again.body.isEmpty && again.header("ETag") == codedTag)
        }
    }

    /// A list kept in memory but not yet compressed: the fast path renders it once on the event
    /// loop and the pool only compresses that body; the route does not start over (the answer is
    /// looked up once per request, not twice).
    @Test func aGzipMissIsRenderedOnceAndCompressedOnThePool() throws {
        let (h, reader, path, plain) = try Self.fifteenYearList()
        var request = CacheRouteTests.request(path, accountId: reader.id, bearer: reader.token)
        request.headers.append(name: "Accept-Encoding", value: "gzip")
        guard case .finishOnPool = try #require(h.runtime.api.accounts.issueListPlan(&request)) else {
            Issue.record("a list to compress is left to the pool")
            return
        }
        let hits = h.runtime.core.accounts.answerStats.counts.hits
        let coded = try h.client.get(path, as: reader.token, headers: [("Accept-Encoding", "gzip")])
        #expect(coded.status == 200 && coded.header("Content-Encoding") == "gzip")
        #expect(coded.decodedBody == plain.body)
        #expect(h.runtime.core.accounts.answerStats.counts.hits == hits + 1, "only the fast path looked the answer up")
    }

    /// A reader subscribed for fifteen years on the sample catalog, and its monthly list as first
    /// answered (plain: nothing compressed yet).
    private static func fifteenYearList() throws -> (H, (id: String, token: String), String, APIResponse) {
        let h = try H.withSampleCatalog()
        let reader = try h.createAccount()
        try h.subscribeFor15Years(reader.id)
        let path = "/v1/accounts/\(reader.id)/issues?publication=monthly"
        return (h, reader, path, try h.client.get(path, as: reader.token))
    }

    @Test(arguments: [
        ("gzip", true), ("GZIP;q=0.5", true), ("x-gzip", true), ("*", true), ("br;q=1, *;q=0.1", true),
        ("gzip;q=0", false), ("gzip;q=0.000, *", false), ("identity", false), ("br, deflate", false),
        ("gzip;q=0, *;q=1", false), ("", false), ("gzip;q=2", false), ("gzip;q=nonsense", false),
    ])
    func acceptEncodingWeightsAreHonoured(field: String, gzipped: Bool) throws {
        let h = try H.withSampleCatalog()
        let response = try h.client.get("/v1/publications/monthly/issues", headers: [("Accept-Encoding", field)])
        #expect(response.status == 200)
        #expect((response.header("Content-Encoding") == "gzip") == gzipped, "Accept-Encoding: \(field)")
        #expect(response.header("Vary") == "Accept-Encoding")
        #expect(response.decodedJSON["issues"] != nil)
    }

    @Test func everyLargeJSONAnswerIsCodedAndSmallOnesAreNot() throws {
        let h = try H()
        let document = try h.client.get("/openapi.json", headers: [("Accept-Encoding", "gzip")])
        #expect(document.header("Content-Encoding") == "gzip" && document.header("Vary") == "Accept-Encoding")
        #expect(document.decodedJSON["openapi"] != nil)
        let plainDocument = try h.client.get("/openapi.json")
        #expect(plainDocument.header("Content-Encoding") == nil && plainDocument.header("Vary") == "Accept-Encoding")
        let health = try h.client.get("/healthz", headers: [("Accept-Encoding", "gzip")])
        #expect(health.header("Content-Encoding") == nil && health.header("Vary") == nil, "1 KiB or less: as it is")
    }
}
