import Foundation
@testable import GatewayConfiguration
import GatewayCrypto
import Testing
import TestSupport
import Wire
import GatewayTesting

/// A gateway with `ISSUE_GATEWAY_EDGE_FORMAT=nginx-secure-link` in front of real nginx running
/// `deploy/nginx/edge-secure-link.conf` as publishers copy it: nginx serves the gateway's URLs by
/// itself (no request reaches the gateway) and refuses forged, unknown-key and expired ones.
@Suite(.tags(.integration, .nginx)) struct NginxSecureLinkTests {
    @Test func nginxServesTheGatewaysLinksAndRefusesEveryOther() throws {
        let secrets = try EdgeFormatFixtures.nginxSecrets()
        let h = try H(configure: { $0.edge.format = .nginxSecureLink; $0.edge.secrets = secrets })
        try h.seedCatalog()
        try EdgeFormatFixtures.publishOddIssue(h)
        let edge = try NginxEdge(secureLinkSecrets: secrets)
        defer { edge.stop() }
        let files = EdgeFormatFixtures.oddIssuePaths.enumerated().map { index, path in
            (path, (0..<(3000 + index)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ index) })
        }
        for (path, bytes) in files { try edge.place(bytes, at: path) }
        let cdn = APIClient(port: edge.port)
        let reader = try h.createAccount()
        /// The path and query of each URL the gateway hands out now (nginx's clock is the real one).
        func links(at instant: Instant) throws -> [String] {
            h.clock.set(instant)
            let response = try h.token(for: reader, issue: "2026-03")
            try #require(response.status == 200, "\(response.text)")
            #expect(response.json["format"] as? String == "nginx-secure-link")
            #expect(response.json["token"] is String, "the JWS stays in every answer")
            let urls = try #require(response.json["urls"] as? [String])
            #expect(urls.allSatisfy { $0.hasPrefix(H.cdnBaseURL + "/content/monthly/2026-03/") && $0.hasSuffix("&kid=n1") })
            return urls.map { String($0.dropFirst(H.cdnBaseURL.count)) }
        }
        let now = Instant(secondsSinceEpoch: Int64(Date().timeIntervalSince1970))
        let fresh = try links(at: now)
        #expect(fresh[1].hasPrefix("/content/monthly/2026-03/Extras/read%20me%20%C3%A9.txt?md5="))
        for (link, (_, bytes)) in zip(fresh, files) {
            let served = try cdn.get(link)
            #expect(served.status == 200, "\(link)")
            #expect(served.body == bytes)
            #expect(try cdn.send("HEAD", link).status == 200)
        }

        // Forged: another hash, another path, a later expiry, no hash.
        let link = fresh[0]
        let md5 = String(link.split(separator: "md5=")[1].prefix(22))
        // The first character: the last one's low bits are padding, which nginx's decoder ignores.
        let forgedHash = link.replacingOccurrences(of: md5, with: (md5.first == "A" ? "B" : "A") + String(md5.dropFirst()))
        #expect(try cdn.get(forgedHash).status == 403)
        #expect(try cdn.get(link.replacingOccurrences(of: "issue.pdf", with: "Extras/read%20me%20%C3%A9.txt")).status == 403)
        let expires = link.split(separator: "expires=")[1].prefix { $0 != "&" }
        #expect(try cdn.get(link.replacingOccurrences(of: "expires=\(expires)", with: "expires=\(Int64(expires)! + 1)")).status == 403)
        #expect(try cdn.get("/content/monthly/2026-03/issue.pdf?expires=\(expires)&kid=n1").status == 403)
        // An unknown or missing kid, even with the hash of the empty secret anyone can compute
        // (the required guard of deploy/nginx/edge-secure-link.conf).
        #expect(try cdn.get(link.replacingOccurrences(of: "&kid=n1", with: "&kid=n9")).status == 403)
        #expect(try cdn.get(link.replacingOccurrences(of: "&kid=n1", with: "")).status == 403)
        let empty = Base64URL.encode(try MD5Digest.hash(Array("\(expires)/content/monthly/2026-03/issue.pdf ".utf8)))
        #expect(try cdn.get("/content/monthly/2026-03/issue.pdf?md5=\(empty)&expires=\(expires)&kid=zz").status == 403)

        // Signed with the old key during a rotation: n2 listed second still passes at nginx.
        let reversed = secrets.split(separator: ",").reversed().joined(separator: ",")
        let rotated = try H(configure: { $0.edge.format = .nginxSecureLink; $0.edge.secrets = reversed })
        try rotated.seedCatalog()
        try EdgeFormatFixtures.publishOddIssue(rotated)
        rotated.clock.set(now)
        let other = try rotated.createAccount()
        let oldKey = try #require(try rotated.token(for: other, issue: "2026-03").json["urls"] as? [String])
        #expect(oldKey[0].hasSuffix("&kid=n2"))
        #expect(try cdn.get(String(oldKey[0].dropFirst(H.cdnBaseURL.count))).status == 200)

        // Genuine but expired: a link handed out longer than the lifetime ago answers 410.
        let old = try links(at: now.adding(seconds: -301))
        #expect(try cdn.get(old[0]).status == 410)
    }
}
