import Foundation
@testable import GatewayConfiguration

/// Keys of shared/vectors/edge/edge-vectors.json (kept in Tests/EdgeFormatsTests/Vectors) for
/// gateways configured with a CDN-native format, and an issue whose asset paths need encoding.
package enum EdgeFormatFixtures {
    package static func keys() throws -> [String: Any] {
        let file = NginxEdge.repository.appendingPathComponent("Tests/EdgeFormatsTests/Vectors/edge-vectors.json")
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
        return root["keys"] as! [String: Any]
    }

    /// `ISSUE_GATEWAY_EDGE_SECRETS` of the vectors' nginx keys, n1 first.
    package static func nginxSecrets() throws -> String {
        (try keys()["nginx"] as! [[String: String]]).map { "\($0["kid"]!):\($0["secret"]!)" }.joined(separator: ",")
    }

    /// The vectors' CloudFront key `name` (`rsa` or `ec`) as a PEM file in a fresh folder, and its key pair id.
    package static func cloudFrontKeyFile(_ name: String, form: String) throws -> (path: String, keyPairId: String, publicKeyPEM: String) {
        let key = (try keys()["cloudfront"] as! [String: Any])[name] as! [String: String]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("edge-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("key.pem")
        try key[form]!.write(to: file, atomically: true, encoding: .utf8)
        return (file.path, key["keyPairId"]!, key["publicKeyPem"]!)
    }

    /// A free issue of `monthly` published 2026-03-01 whose second asset has a space and `é`.
    package static let oddIssuePaths = ["/content/monthly/2026-03/issue.pdf", "/content/monthly/2026-03/Extras/read me é.txt"]

    package static func publishOddIssue(_ h: H) throws {
        let body = H.issueBody(id: "2026-03", publishedAt: "2026-03-01T00:00:00Z", free: true, paths: oddIssuePaths)
        let response = try h.client.post("/v1/publications/monthly/issues", as: H.adminKey, json: body)
        guard response.status == 201 else { throw HarnessError.unexpected("publishing 2026-03: \(response.text)") }
    }
}
