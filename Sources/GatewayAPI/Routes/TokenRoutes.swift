import DownloadTokens
import Entitle
import HTTPServer
import IssueCatalog

/// `POST /v1/accounts/{accountId}/publications/{publicationId}/issues/{issueId}/token`
/// (http-api.md; tokens.md): a download token only for a visible, entitled issue (E16).
extension Gateway {
    func registerTokenRoutes(_ router: APIRouterBuilder) {
        // A known principal whose account's facts are in memory is answered on the event loop:
        // the engine and the HMAC need no store.
        router.add("POST", "/v1/accounts/{accountId}/publications/{publicationId}/issues/{issueId}/token",
                   execution: .store, fastPath: { [self] request in cachedTokenResponse(request) },
                   handler: apiHandler { [self] request throws(APIError) in
            let accountId = try requireAccount(request)
            return try tokenResponse(accountId, Self.issueRef(request), try entitlements(of: accountId))
        })
    }

    private static func issueRef(_ request: HTTPRequest) -> IssueRef {
        IssueRef(publicationId: request.parameter("publicationId"), issueId: request.parameter("issueId"))
    }

    /// The route's answer from memory only; nil when the principal or the facts would need the store.
    func cachedTokenResponse(_ request: HTTPRequest) -> HTTPResponse? {
        let accountId = request.parameter("accountId")
        // Facts are kept only for an account that exists, so a service key needs no lookup.
        guard let principal = authenticator.cachedPrincipal(request), principal.mayActFor(account: accountId),
              let facts = accounts.cachedFacts(accountId) else { return nil }
        do throws(APIError) {
            return try tokenResponse(accountId, Self.issueRef(request), evaluate(facts, catalog.state, clock.now()))
        } catch {
            return error.response
        }
    }

    /// A token for a visible, entitled issue (E16); 404 for an issue the reader cannot see, 403
    /// `not_entitled` with the nearest reason (E20) otherwise.
    private func tokenResponse(_ accountId: String, _ ref: IssueRef,
                               _ answer: AccountEntitlements) throws(APIError) -> HTTPResponse {
        guard let entitlement = answer.entitlement(for: ref) else {
            throw .notFound("no issue \(ref.issueId) in \(ref.publicationId)")
        }
        guard entitlement.entitled else {
            var error = APIError(status: 403, code: "not_entitled", message: "this account may not download \(ref.issueId)")
            error.extra = [("reason", .string(entitlement.reasons.first?.rawValue ?? EntitlementReason.noPurchase.rawValue))]
            throw error
        }
        let paths = entitlement.issue.assets.map(\.path)
        let signed: SignedDownloadToken
        do {
            signed = try signer.sign(subject: accountId, publication: ref.publicationId, issue: ref.issueId,
                                     paths: paths, now: clock.now(), random: random)
        } catch {
            throw .internalError("the token could not be signed")
        }
        counters.tokensIssued.increment()
        let base = configuration.cdnBaseURL.hasSuffix("/") ? String(configuration.cdnBaseURL.dropLast()) : configuration.cdnBaseURL
        return .json(200) { w in
            w.object { w in
                w.field("token", signed.token)
                w.field("expiresAt", signed.expiresAt.rfc3339)
                w.key("urls")
                // The token rides in the query too, so a plain download manager can fetch the
                // URL as it is; edges also take it from `Authorization: Bearer`.
                w.array { w in for path in paths { w.string("\(base)\(path)?token=\(signed.token)") } }
            }
        }
    }
}
