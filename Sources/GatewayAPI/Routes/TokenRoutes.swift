import Entitle
import HTTPServer
import IssueCatalog

/// `POST /v1/accounts/{accountId}/publications/{publicationId}/issues/{issueId}/token`
/// (http-api.md; tokens.md): a download token only for a visible, entitled issue (E16).
extension Gateway {
    func registerTokenRoutes(_ router: RouterBuilder) {
        router.add("POST", "/v1/accounts/{accountId}/publications/{publicationId}/issues/{issueId}/token",
                   execution: .store, handler: apiHandler { [self] request throws(APIError) in
            let accountId = try requireAccount(request)
            let ref = IssueRef(publicationId: request.parameter("publicationId"), issueId: request.parameter("issueId"))
            guard let entitlement = try entitlements(of: accountId).entitlement(for: ref) else {
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
                throw .internalError("the token could not be signed: \(error)")
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
        })
    }
}
