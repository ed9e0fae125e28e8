import DownloadTokens
import Entitle
import GatewayCore
import GatewayCrypto
import HTTPServer

/// `Authorization: Bearer <secret>` (RFC 6750 §2.1) resolved to a principal (http-api.md, Auth).
extension Authenticator {
    /// nil when no bearer secret is sent.
    package static func bearerSecret(_ request: HTTPRequest) -> String? {
        (try? EdgeCheck.bearerToken(request.header("Authorization"))) ?? nil
    }

    /// 401 when the secret is missing or unknown.
    package func principal(_ request: HTTPRequest) throws(GatewayError) -> Principal {
        try session(request).principal
    }

    /// The principal with, for an account's token, its session's id (E34); 401 when the secret
    /// is missing, unknown, or its session has ended.
    package func session(_ request: HTTPRequest) throws(GatewayError) -> (principal: Principal, sessionId: String?) {
        guard let secret = Self.bearerSecret(request) else { throw .unauthorized() }
        let digest: SecretDigest
        if let noted = request.credentialDigest { digest = SecretDigest(words: noted) } else { digest = try self.digest(of: secret) }
        guard let found = try resolveSession(digest) else { throw .unauthorized("unknown secret") }
        return found
    }

    /// The principal from memory alone: nil when the secret is missing, or not resolved before
    /// (the store would have to be asked). The secret's digest is noted on the request, so the
    /// handler of a fast path that declines does not hash it again.
    package func cachedPrincipal(_ request: inout HTTPRequest) -> Principal? {
        // One SHA-256 per request, compared with the admin key's and looked up as it is.
        guard let secret = Self.bearerSecret(request), let digest = try? digest(of: secret) else { return nil }
        request.credentialDigest = digest.words
        return cachedPrincipal(digest)
    }
}
