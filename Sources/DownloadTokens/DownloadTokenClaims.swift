import Wire

/// The claims of a download token (tokens.md, Claims), in the order they are serialised.
public struct DownloadTokenClaims: Equatable, Sendable {
    public var issuer: String          // iss
    public var audience: String        // aud
    public var subject: String         // sub: the account id
    public var publication: String     // pub
    public var issue: String           // issue
    public var paths: [String]         // paths: the issue's asset paths, exact, as published
    public var issuedAt: Int64         // iat, seconds since the epoch
    public var notBefore: Int64        // nbf
    public var expiresAt: Int64        // exp = iat + lifetime
    public var tokenID: String         // jti: 128 random bits, base64url

    public init(issuer: String, audience: String, subject: String, publication: String, issue: String,
                paths: [String], issuedAt: Int64, notBefore: Int64, expiresAt: Int64, tokenID: String) {
        self.issuer = issuer; self.audience = audience; self.subject = subject
        self.publication = publication; self.issue = issue; self.paths = paths
        self.issuedAt = issuedAt; self.notBefore = notBefore; self.expiresAt = expiresAt; self.tokenID = tokenID
    }

    public var jsonObject: JSONObject {
        JSONObject([
            JSONMember("iss", .string(issuer)), JSONMember("aud", .string(audience)),
            JSONMember("sub", .string(subject)), JSONMember("pub", .string(publication)),
            JSONMember("issue", .string(issue)), JSONMember("paths", .array(paths.map(JSONValue.string))),
            JSONMember("iat", .integer(issuedAt)), JSONMember("nbf", .integer(notBefore)),
            JSONMember("exp", .integer(expiresAt)), JSONMember("jti", .string(tokenID)),
        ])
    }

    /// tokens.md step 4, the shape part: `aud` must be exactly the string `audience` (a JSON
    /// array, which RFC 7519 §4.1.3 allows, is refused: the gateway never issues one); `exp`,
    /// `nbf`, `iat` integers; every other claim of the table present with its type. Claims not
    /// in the table are ignored (RFC 7519 §4).
    public init(validating claims: JSONObject, audience expected: String) throws(TokenFailure) {
        guard claims["aud"]?.stringValue == expected else { throw .audience }
        guard let iat = claims["iat"]?.integerValue, let nbf = claims["nbf"]?.integerValue,
              let exp = claims["exp"]?.integerValue,
              let iss = claims["iss"]?.stringValue, let sub = claims["sub"]?.stringValue,
              let pub = claims["pub"]?.stringValue, let issue = claims["issue"]?.stringValue,
              let jti = claims["jti"]?.stringValue,
              let pathValues = claims["paths"]?.arrayValue else { throw .claimTypes }
        var paths: [String] = []
        paths.reserveCapacity(pathValues.count)
        for value in pathValues {
            guard let path = value.stringValue else { throw .claimTypes }
            paths.append(path)
        }
        self.init(issuer: iss, audience: expected, subject: sub, publication: pub, issue: issue,
                  paths: paths, issuedAt: iat, notBefore: nbf, expiresAt: exp, tokenID: jti)
    }
}
