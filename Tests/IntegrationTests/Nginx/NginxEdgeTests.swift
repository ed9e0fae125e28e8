import Foundation
@testable import GatewayConfiguration
import Testing
import TestSupport
import GatewayTesting

/// The edge publishers copy (`deploy/nginx/edge.conf`) in front of the in-process gateway: real
/// nginx serves a file only when the gateway's `GET /v1/edge/verify` allows it.
@Suite(.tags(.integration, .nginx)) struct NginxEdgeTests {
    @Test func nginxServesFilesOnlyForTheTokenThatCoversThem() throws {
        let h = try H(transport: .socket)
        try h.seedCatalog()
        let edge = try NginxEdge(gatewayPort: h.port)
        defer { edge.stop() }
        let file = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let path = "/content/monthly/2026-02/issue.pdf"
        try edge.place(file, at: path)
        try edge.place([1, 2, 3], at: "/content/monthly/2026-01/issue.pdf")
        let reader = try h.createAccount()
        let issued = try h.token(for: reader, issue: "2026-02")
        try #require(issued.status == 200)
        let token = try #require(issued.json["token"] as? String)
        let cdn = APIClient(port: edge.port)

        let bearer = try cdn.get(path, as: token)
        #expect(bearer.status == 200)
        #expect(bearer.body == file)
        #expect(bearer.header("Cache-Control") == "private, max-age=300")
        let query = try cdn.get("\(path)?token=\(token)")
        #expect(query.status == 200)
        #expect(query.body == file)
        #expect(try cdn.send("HEAD", path, as: token).status == 200)

        #expect(try cdn.get(path).status == 401, "no token")
        #expect(try cdn.get(path, as: "garbage").status == 401)
        #expect(try cdn.get("\(path)?token=\(token.dropLast(2))").status == 401, "bad signature")
        #expect(try cdn.get("/content/monthly/2026-01/issue.pdf", as: token).status == 403, "another issue's file")
        #expect(try cdn.get("/content/monthly/2026-01/issue.pdf?token=\(token)").status == 403)
        #expect(try cdn.send("POST", path, as: token, body: Array("x".utf8)).status == 403)
        #expect(try cdn.get("/content/monthly/2026-02/../2026-01/issue.pdf", as: token).status != 200)
        #expect(try cdn.get("/content/monthly/2026-02/%2e%2e/2026-01/issue.pdf", as: token).status != 200)
        #expect(try cdn.get("/_verify", as: token).status == 404, "the check is internal")

        // Expired: the edge follows the gateway's clock.
        h.clock.advance(seconds: 331)
        #expect(try cdn.get(path, as: token).status == 401)

        // The gateway down: the edge fails closed.
        h.stop()
        let down = try cdn.get(path, as: token).status
        #expect(down == 500 || down == 502, "got \(down)")
    }
}
