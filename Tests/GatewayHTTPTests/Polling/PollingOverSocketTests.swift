import Foundation
@testable import GatewayConfiguration
import Testing
import GatewayTesting

/// The cheap-polling answers as a real client meets them: a 304 has no body and leaves the
/// connection's framing intact, a gzip body is exactly its Content-Length.
@Suite struct PollingOverSocketTests {
    @Test func etagGzipAnd304OverARealSocket() throws {
        let h = try H.withSampleCatalog(transport: .socket)
        defer { h.stop() }
        let reader = try h.createAccount()
        try h.subscribeFor15Years(reader.id)
        let path = "/v1/accounts/\(reader.id)/issues?publication=monthly"
        let plain = try h.client.get(path, as: reader.token)
        #expect(plain.status == 200 && plain.header("ETag") != nil)
        let gzip = [("Accept-Encoding", "gzip")]
        // The first gzip answer is compressed on the store pool, the next ones come from the
        // event loop's fast path, kept by their tag.
        var tags: [String] = []
        for _ in 0..<2 {
            let coded = try h.client.get(path, as: reader.token, headers: gzip)
            #expect(coded.status == 200 && coded.header("Content-Encoding") == "gzip")
            #expect(coded.header("Vary") == "Accept-Encoding")
            #expect(coded.header("Content-Length") == String(coded.body.count))
            #expect(coded.decodedBody == plain.body)
            tags.append(try #require(coded.header("ETag")))
        }
        #expect(tags[0] == tags[1])
        for _ in 0..<2 {
            let unchanged = try h.client.get(path, as: reader.token, headers: gzip + [("If-None-Match", tags[0])])
            #expect(unchanged.status == 304 && unchanged.body.isEmpty)
            #expect(unchanged.header("ETag") == tags[0] && unchanged.header("Content-Length") == nil)
        }
        let catalog = try h.client.get("/v1/publications", headers: gzip)
        let catalogTag = try #require(catalog.header("ETag"))
        #expect(try h.client.get("/v1/publications", headers: [("If-None-Match", catalogTag)]).status == 304)
    }
}
