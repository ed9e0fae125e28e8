import GatewayCrypto
import IssueCatalog
import Wire

/// A freshly signed token and when it stops working (for the token answer's `expiresAt`).
public struct SignedDownloadToken: Equatable, Sendable {
    public let token: String
    public let claims: DownloadTokenClaims
    public var expiresAt: Instant { Instant(secondsSinceEpoch: claims.expiresAt) }
}

public enum TokenSignerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The lifetime is not within 1…`TokenPolicy.maxLifetimeSeconds` (`ISSUE_GATEWAY_TOKEN_TTL`).
    case invalidLifetime(Int64)
    case emptyIssuer
    /// The token would exceed `TokenPolicy.maxTokenBytes` (too many or too long asset paths), so
    /// every verifier would refuse it; better to say so at issue time.
    case tokenTooLong(bytes: Int)
    case crypto(CryptoError)

    public var description: String {
        switch self {
        case .invalidLifetime(let s): return "token lifetime \(s) s is outside 1…\(TokenPolicy.standard.maxLifetimeSeconds) s"
        case .emptyIssuer: return "token issuer must not be empty"
        case .tokenTooLong(let n): return "the download token would be \(n) bytes, above the verifiers' limit"
        case .crypto(let e): return e.description
        }
    }
}

/// Issues download tokens (tokens.md, Format) with the set's first key. "Now" and the random
/// source come from the caller: this target reads no clock.
public struct TokenSigner: Sendable {
    public let keys: TokenKeySet
    public let issuer: String
    public let lifetimeSeconds: Int64
    public let policy: TokenPolicy

    public init(keys: TokenKeySet, issuer: String, lifetimeSeconds: Int64, policy: TokenPolicy = .standard)
        throws(TokenSignerError) {
        guard (1...policy.maxLifetimeSeconds).contains(lifetimeSeconds) else { throw .invalidLifetime(lifetimeSeconds) }
        guard !issuer.isEmpty else { throw .emptyIssuer }
        self.keys = keys
        self.issuer = issuer
        self.lifetimeSeconds = lifetimeSeconds
        self.policy = policy
    }

    /// `iat` = `nbf` = now (whole seconds, rounded down), `exp` = `iat` + lifetime, `jti` = 128
    /// random bits.
    public func sign(subject: String, publication: String, issue: String, paths: [String], now: Instant,
                     random: some RandomBytesSource) throws(TokenSignerError) -> SignedDownloadToken {
        let iat = now.secondsSinceEpoch
        let jti: [UInt8]
        do { jti = try random.randomBytes(count: 16) } catch { throw .crypto(error) }
        let claims = DownloadTokenClaims(issuer: issuer, audience: policy.audience, subject: subject,
                                         publication: publication, issue: issue, paths: paths,
                                         issuedAt: iat, notBefore: iat,
                                         expiresAt: iat.addingSaturated(lifetimeSeconds),
                                         tokenID: Base64URL.encode(jti))
        return SignedDownloadToken(token: try sign(claims: claims), claims: claims)
    }

    /// Signs the given claims as they are; for callers (and tests) that build claims themselves.
    public func sign(claims: DownloadTokenClaims) throws(TokenSignerError) -> String {
        let key = keys.signingKey
        // tokens.md, Format: the header is exactly {"alg":"HS256","typ":"JWT","kid":"<kid>"}.
        let header = JSONObject([JSONMember("alg", .string(JOSEHeaderCheck.algorithm)),
                                 JSONMember("typ", .string("JWT")), JSONMember("kid", .string(key.kid))])
        let signingInput = Base64URL.encode(JSONValue.object(header).serializedBytes) + "."
            + Base64URL.encode(JSONValue.object(claims.jsonObject).serializedBytes)
        let mac: [UInt8]
        do { mac = try key.mac(Array(signingInput.utf8)) } catch { throw .crypto(error) }
        let token = signingInput + "." + Base64URL.encode(mac)
        guard token.utf8.count <= policy.maxTokenBytes else { throw .tokenTooLong(bytes: token.utf8.count) }
        return token
    }
}
