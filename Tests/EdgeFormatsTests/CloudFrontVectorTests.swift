import EdgeFormats
import Foundation
import GatewayCrypto
import Testing

/// edge-vectors.json, `cloudFront` (botocore's CloudFrontSigner, cross-checked with
/// cryptography and the openssl CLI): policies, their encoding, RSA signatures and URLs byte for
/// byte; ECDSA signatures, randomized, verified with the public key instead.
@Suite struct CloudFrontVectorTests {
    static func signer(_ keyName: String, pem: String, hash: String) throws -> CloudFrontSigning {
        let key = EdgeVectorFile.cloudFrontKey(keyName)
        return try CloudFrontSigning(key: SigningPrivateKey(pem: pem), keyPairId: key["keyPairId"]!,
                                     digest: MessageDigest(rawValue: hash)!)
    }

    /// Every private key form a vector key comes in (PKCS#1 and PKCS#8 for RSA, SEC1 and PKCS#8 for EC).
    static func pems(_ keyName: String) -> [String] {
        let key = EdgeVectorFile.cloudFrontKey(keyName)
        return ["privateKeyPkcs1Pem", "privateKeySec1Pem", "privateKeyPkcs8Pem"].compactMap { key[$0] }
    }

    @Test func everyVectorIsReproduced() throws {
        let vectors = EdgeVectorFile.section("cloudFront")
        #expect(vectors.count == 7)
        for vector in vectors {
            let input = vector["input"] as! [String: Any]
            let name = vector["name"] as! String
            let keyName = input["key"] as! String, hash = input["hashAlgorithm"] as! String
            let resource = input["policyResource"] as! String, expires = (input["dateLessThan"] as! NSNumber).int64Value
            let policy = CloudFrontSigning.policy(resource: resource, expires: expires)
            #expect(policy == vector["policyJson"] as! String, "\(name)")
            #expect(CloudFrontSigning.encode(Array(policy.utf8)) == vector["policyCloudFrontBase64"] as! String, "\(name)")
            let publicKey = try #require(SignaturePublicKey(pem: EdgeVectorFile.cloudFrontKey(keyName)["publicKeyPem"]!))
            let digest = MessageDigest(rawValue: hash)!
            // The vector's own signature verifies with the public key (so the check below can fail).
            let theirs = try #require(EdgeVectorFile.cloudFrontDecode(vector["signature"] as! String))
            #expect(publicKey.verifies(theirs, over: Array(policy.utf8), digest: digest), "\(name)")
            #expect(!publicKey.verifies(theirs, over: Array((policy + " ").utf8), digest: digest))
            let deterministic = vector["deterministic"] as! Bool
            let theirSignature = vector["signature"] as! String
            for pem in Self.pems(keyName) {
                let signer = try Self.signer(keyName, pem: pem, hash: hash)
                #expect(try signer.key.publicKeyPEM == EdgeVectorFile.cloudFrontKey(keyName)["publicKeyPem"]!)
                let signature = try signer.signature(of: policy)
                if deterministic {
                    #expect(signature == theirSignature, "\(name)")
                } else {
                    let bytes = try #require(EdgeVectorFile.cloudFrontDecode(signature))
                    #expect(publicKey.verifies(bytes, over: Array(policy.utf8), digest: digest), "\(name)")
                }
                let expected = vector["url"] as! String
                switch input["policyKind"] as! String {
                case "canned":
                    let url = try signer.cannedURL(resource: resource, expires: expires)
                    #expect(Self.withoutSignature(url) == Self.withoutSignature(expected), "\(name)")
                    if deterministic { #expect(url == expected, "\(name)") }
                default:
                    try Self.checkCookies(signer, vector: vector, resource: resource, expires: expires, deterministic: deterministic)
                }
            }
        }
    }

    /// The custom-policy vectors' cookies (and their `Set-Cookie` spelling) are the issue
    /// folder's cookies the gateway hands out.
    static func checkCookies(_ signer: CloudFrontSigning, vector: [String: Any], resource: String, expires: Int64,
                             deterministic: Bool) throws {
        let expected = (vector["cookies"] as! [[String: String]]).map { ($0["name"]!, $0["value"]!) }
        let cookies = try signer.cookies(resourcePrefix: resource, expires: expires, domain: "d111111abcdef8.cloudfront.net",
                                         path: "/content/monthly/2012-02/")
        #expect(cookies.map(\.name) == expected.map(\.0))
        for (cookie, (name, value)) in zip(cookies, expected) where name != "CloudFront-Signature" || deterministic {
            #expect(cookie.value == value, "\(vector["name"]!) \(name)")
        }
        let headers = vector["setCookieHeaders"] as! [String]
        for (cookie, header) in zip(cookies, headers) where cookie.name != "CloudFront-Signature" || deterministic {
            #expect(cookie.setCookie == header)
        }
    }

    static func withoutSignature(_ url: String) -> String {
        url.replacing(/Signature=[^&]*/, with: "Signature=")
    }

    /// Through the configured signer: query answers a canned URL per asset, including the path
    /// with a space and `é`; cookie answers plain URLs and the folder's custom-policy cookies.
    @Test func theIssueGrantInQueryAndCookieForm() throws {
        let rsa = EdgeVectorFile.cloudFrontKey("rsa")
        let paths = ["/content/monthly/2012-02/issue.pdf", "/content/monthly/2012-02/Extras/read me é.txt"]
        let byName = Dictionary(uniqueKeysWithValues: EdgeVectorFile.section("cloudFront").map { ($0["name"] as! String, $0) })
        let query = try EdgeURLSigner(format: .cloudfront, delivery: .query, cdnBase: "https://d111111abcdef8.cloudfront.net/",
                                      keyId: rsa["keyPairId"], privateKeyPEM: rsa["privateKeyPkcs1Pem"], hash: .sha256)
        #expect(!query.signsQuickly)
        let grant = try query.grant(paths: paths, issuedAt: 1767225600, expires: 1767225900, jwsToken: "jws")
        #expect(grant.urls == [byName["canned-url-rsa-sha256"]!["url"] as! String,
                               byName["canned-url-rsa-sha256-encoded-path"]!["url"] as! String])
        #expect(grant.cookies == nil)

        let cookie = try EdgeURLSigner(format: .cloudfront, delivery: .cookie, cdnBase: "https://d111111abcdef8.cloudfront.net",
                                       keyId: rsa["keyPairId"], privateKeyPEM: rsa["privateKeyPkcs8Pem"], hash: .sha1)
        let cookieGrant = try cookie.grant(paths: paths, issuedAt: 1767225600, expires: 1767225900, jwsToken: "jws")
        #expect(cookieGrant.urls == ["https://d111111abcdef8.cloudfront.net/content/monthly/2012-02/issue.pdf",
                                     "https://d111111abcdef8.cloudfront.net/content/monthly/2012-02/Extras/read%20me%20%C3%A9.txt"])
        #expect(cookieGrant.cookies?.map(\.setCookie) == byName["custom-wildcard-rsa-sha1"]!["setCookieHeaders"] as? [String])

        // An issue spread over the whole distribution would need a policy for `/*`: query form.
        let spread = try cookie.grant(paths: ["/a.pdf", "/content/b.pdf"], issuedAt: 1767225600, expires: 1767225900, jwsToken: "jws")
        #expect(spread.cookies == nil)
        #expect(spread.urls.allSatisfy { $0.contains("?Expires=1767225900&Signature=") })

        let ec = EdgeVectorFile.cloudFrontKey("ec")
        let ecSigner = try EdgeURLSigner(format: .cloudfront, delivery: .cookie, cdnBase: "https://d111111abcdef8.cloudfront.net",
                                         keyId: ec["keyPairId"], privateKeyPEM: ec["privateKeySec1Pem"], cookieDomain: "cdn.example.com")
        #expect(ecSigner.signsQuickly)
        #expect(try ecSigner.grant(paths: paths, issuedAt: 1767225600, expires: 1767225900, jwsToken: "jws").cookies?.map(\.domain)
                == Array(repeating: "cdn.example.com", count: 4))
    }

    @Test func keysOtherThanRSA2048AndP256AndEncryptedOnesAreRefused() throws {
        #expect(throws: SigningPrivateKey.PEMError.unsupportedKey("an RSA 1024 key")) {
            try SigningPrivateKey(pem: EdgeVectorFile.text("test-only-rsa1024.pem"))
        }
        #expect(throws: SigningPrivateKey.PEMError.unsupportedKey("an EC key on another curve")) {
            try SigningPrivateKey(pem: EdgeVectorFile.text("test-only-p384.pem"))
        }
        #expect(throws: SigningPrivateKey.PEMError.notAPrivateKey) {
            try SigningPrivateKey(pem: EdgeVectorFile.text("test-only-encrypted-p256.pem"))
        }
        #expect(throws: SigningPrivateKey.PEMError.notAPrivateKey) {
            try SigningPrivateKey(pem: EdgeVectorFile.cloudFrontKey("rsa")["publicKeyPem"]!)
        }
        #expect(throws: SigningPrivateKey.PEMError.notAPrivateKey) { try SigningPrivateKey(pem: "") }
    }
}
