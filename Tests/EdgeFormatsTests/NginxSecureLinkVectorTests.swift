import EdgeFormats
import Foundation
import Testing

/// edge-vectors.json, `nginxSecureLink`: every hash, and every URL the gateway would hand out,
/// byte for byte (the vectors' `measured` fields record what a running nginx answered to them).
@Suite struct NginxSecureLinkVectorTests {
    static let secrets = (EdgeVectorFile.keys["nginx"] as! [[String: String]]).map { ($0["kid"]!, $0["secret"]!) }
    static let origin = EdgeOrigin("http://127.0.0.1:18473")!

    static func secret(_ kid: String?) -> String {
        guard let kid else { return "" }
        return secrets.first { $0.0 == kid }!.1
    }

    @Test func everyHashIsReproduced() throws {
        let vectors = EdgeVectorFile.section("nginxSecureLink")
        #expect(vectors.count == 15)
        for vector in vectors {
            let input = vector["input"] as! [String: Any]
            let path = input["path"] as! String, expires = (input["expires"] as! NSNumber).int64Value
            let secret = Self.secret(input["signedWithKid"] as? String)
            #expect("\(expires)\(path) \(secret)" == vector["stringToHash"] as! String)
            #expect(try NginxSecureLink.hash(path: path, expires: expires, secret: secret) == vector["md5Base64url"] as! String,
                    "\(vector["name"]!)")
        }
    }

    /// The vectors nginx accepts (200) and the genuine expired one (410) are the URLs the gateway
    /// signs with that key listed first, including the path with a space and `é`.
    @Test func everyGenuineURLIsTheGatewaysURL() throws {
        var genuine = 0
        for vector in EdgeVectorFile.section("nginxSecureLink") {
            let input = vector["input"] as! [String: Any]
            let status = (vector["expected"] as! [String: Any])["status"] as! Int
            guard status == 200 || status == 410, input["kid"] as? String == input["signedWithKid"] as? String,
                  !(vector["url"] as! String).contains("==") else { continue }
            let kid = input["kid"] as! String
            let ordered = [Self.secrets.first { $0.0 == kid }!] + Self.secrets.filter { $0.0 != kid }
            let signer = try NginxSecureLink(secrets: EdgeSecretList(parsing: ordered.map { "\($0.0):\($0.1)" }.joined(separator: ",")))
            let url = try signer.url(origin: Self.origin, path: input["path"] as! String,
                                     expires: (input["expires"] as! NSNumber).int64Value)
            #expect(url == vector["url"] as! String, "\(vector["name"]!)")
            genuine += 1
        }
        #expect(genuine == 5)
    }

    @Test func theOddPathIsEncodedAsTheVectorsSay() {
        let common = EdgeVectorFile.root["common"] as! [String: Any]
        #expect(EdgePath.encode(common["oddPath"] as! String) == "/content/monthly/2012-02/Extras/read%20me%20%C3%A9.txt")
        #expect(EdgePath.encode("/a-b._~/x!*'();:@&=+$,?#[]%") == "/a-b._~/x%21%2A%27%28%29%3B%3A%40%26%3D%2B%24%2C%3F%23%5B%5D%25")
    }

    @Test func secretsThatAreTooShortOrNotPlainTextAreRefused() {
        #expect(throws: EdgeFormatError.self) { try NginxSecureLink(secrets: EdgeSecretList(parsing: "n1:short")) }
        #expect(throws: EdgeFormatError.self) {
            try NginxSecureLink(secrets: EdgeSecretList(parsing: "n1:" + String(repeating: "a", count: 31) + "\""))
        }
        #expect(throws: EdgeFormatError.self) { try EdgeSecretList(parsing: "n 1:" + String(repeating: "a", count: 40)) }
        #expect(throws: EdgeFormatError.self) {
            try EdgeSecretList(parsing: "n1:\(String(repeating: "a", count: 40)),n1:\(String(repeating: "b", count: 40))")
        }
        #expect(throws: Never.self) { try NginxSecureLink(secrets: EdgeSecretList(parsing: " n1:\(Self.secrets[0].1) , n2:\(Self.secrets[1].1)\n")) }
    }
}
