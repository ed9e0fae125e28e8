import Foundation
@testable import GatewayConfiguration
import TestSupport
import Testing
import GatewayTesting

/// Requests no client should send: bad paths, control characters, broken framing. Each is
/// refused with the spec's error shape, changes nothing, and the gateway keeps serving.
@Suite struct HostileRequestTests {
    @Test func badIdentifiersInPathsAreRefusedAndStoreNothing() throws {
        let h = try H(transport: .socket)
        try h.seedCatalog()
        for path in ["/v1/publications/..", "/v1/publications/%2e%2e", "/v1/publications/a%2fb",
                     "/v1/publications/a%00b", "/v1/publications/a%0Ab", "/v1/publications/%20",
                     "/v1/publications/a%zz"] {
            let response = try h.client.put(path, as: H.adminKey, json: #"{"title":"T"}"#)
            #expect(response.status == 400, "\(path) → \(response.status) \(response.text)")
            #expect(response.hasErrorShape, "\(path)")
        }
        #expect(try h.client.get("/v1/publications").objects("publications").count == 2)
        let issue = H.issueBody(id: "2026-03", publishedAt: "2026-03-01T00:00:00Z", paths: ["/content/a.pdf"])
        #expect(try h.client.put("/v1/publications/monthly/issues/%2e%2e", as: H.adminKey, json: issue).status == 400)
        for id in [".", ".."] {
            let dotted = H.issueBody(id: id, publishedAt: "2026-03-01T00:00:00Z", paths: ["/content/a.pdf"])
            #expect(try h.client.post("/v1/publications/monthly/issues", as: H.adminKey, json: dotted).status == 400)
            #expect(try h.client.put("/v1/products/\(id == "." ? "%2e" : "%2e%2e")", as: H.adminKey,
                                     json: #"{"kind":"free","grants":["monthly"]}"#).status == 400)
        }
        #expect(try h.client.get("/v1/publications/monthly/issues?include=all", as: H.adminKey).objects("issues").count == 3)
        #expect(try h.client.get("/v1/products?all=true").objects("products").count == 2)
    }

    @Test func emptySegmentsAndUnknownRoutesAreNotFoundOrNotAllowed() throws {
        let h = try H(transport: .socket)
        try h.seedCatalog()
        let doubled = try h.client.get("/v1//publications")
        #expect(doubled.status == 404)
        #expect(doubled.hasErrorShape)
        #expect(try h.client.get("/v1/publications/monthly/issues/").status == 404)
        let wrongMethod = try h.client.send("PATCH", "/v1/publications/monthly", as: H.adminKey, body: Array("{}".utf8))
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow")?.contains("PUT") == true)
    }

    @Test func controlCharactersAndBrokenFramingAre400AndTheGatewayKeepsServing() throws {
        let h = try H(transport: .socket)
        let raw: [[UInt8]] = [
            Array("GET /v1/publi\u{01}cations HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
            Array("GET /v1/publications HTTP/1.1\r\nHost: x\r\nX-Bad: a\u{00}b\r\n\r\n".utf8),
            Array("POST /v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}".utf8),
            Array("POST /v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n".utf8),
            Array("GET /v1/publications HTTP/1.1\r\n\r\n".utf8),  // no Host (RFC 9112 §3.2)
        ]
        for bytes in raw {
            let response = try h.client.exchange(bytes)
            #expect(response.status == 400, "\(String(decoding: bytes, as: UTF8.self).debugDescription) → \(response.status)")
        }
        #expect(try h.client.get("/healthz").text == #"{"status":"ok"}"#)
    }

    @Test func anAPIErrorLeavesTheConnectionServing() throws {
        let h = try H(transport: .socket)
        try h.seedCatalog()
        let connection = try TestClient(port: h.port)
        connection.send("GET /v1/publications/nowhere/issues HTTP/1.1\r\nHost: x\r\n\r\n"
            + "PUT /v1/publications/monthly HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"
            + "HEAD /v1/publications HTTP/1.1\r\nHost: x\r\n\r\n"
            + "GET /v1/publications HTTP/1.1\r\nHost: x\r\n\r\n")
        let notFound = try connection.readResponse()
        #expect(notFound.status == 404)
        #expect(notFound.header("Connection")?.lowercased() != "close")
        #expect(try connection.readResponse().status == 401)
        let head = try connection.readResponse(headOnly: true)
        #expect(head.status == 200)
        let listed = try connection.readResponse()
        #expect(listed.status == 200)
        #expect(head.header("Content-Length") == listed.header("Content-Length"))
        #expect(listed.text.contains("The Monthly"))
    }

    @Test func bodiesThatAreNotJSONObjectsAre400() throws {
        let h = try H(transport: .socket)
        try h.seedCatalog()
        for body in ["", "null", "\"title\"", "{\"title\":\"a\"} trailing", "{\"title\":\"\u{FFFD}\"", "{\"title\":\"T\",}"] {
            let response = try h.client.send("PUT", "/v1/publications/p3", as: H.adminKey, body: Array(body.utf8))
            #expect(response.status == 400, "\(body.debugDescription) → \(response.status)")
            #expect(response.errorCode == "bad_request")
        }
        let invalidUTF8 = try h.client.send("PUT", "/v1/publications/p3", as: H.adminKey,
                                            body: Array(#"{"title":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8))
        #expect(invalidUTF8.status == 400)
        #expect(try h.client.get("/v1/publications").objects("publications").count == 2)
    }
}
