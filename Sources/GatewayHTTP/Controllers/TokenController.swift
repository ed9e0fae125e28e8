import DownloadTokens
import EdgeFormats
import Entitle
import GatewayCrypto
import GatewayCore
import GatewayStore
import HTTPServer
import IssueCatalog
import Wire

/// `POST /v1/accounts/{accountId}/publications/{publicationId}/issues/{issueId}/token`
/// (http-api.md; tokens.md): a download token only for a visible, entitled issue (E16), with
/// the issue's URLs (and cookies) in the configured CDN format (tokens.md, CDN-native formats).
package struct TokenController: APIController {
    private let access: Access
    private let entitlements: EntitlementsNow
    private let requesters: Requesters
    private let signer: TokenSigner
    private let settings: APISettings
    private let random: any RandomBytesSource
    private let counters: GatewayCounters
    private let clock: any GatewayClock
    private let downloads: DownloadRecorder

    package init(access: Access, entitlements: EntitlementsNow, requesters: Requesters, signer: TokenSigner,
                 settings: APISettings, random: any RandomBytesSource, counters: GatewayCounters, clock: any GatewayClock,
                 downloads: DownloadRecorder) {
        self.access = access; self.entitlements = entitlements; self.requesters = requesters; self.signer = signer; self.settings = settings; self.random = random; self.counters = counters
        self.clock = clock
        self.downloads = downloads
    }

    package func register(_ router: APIRouterBuilder) {
        // A known principal whose account's answer (or facts) is in memory is answered on the
        // event loop: the decision and the HMAC need no store. A format that signs slowly (an RSA signature
        // per asset) declines, so that its work runs on the pool.
        router.add("POST", "/v1/accounts/{accountId}/publications/{publicationId}/issues/{issueId}/token",
                   execution: .storeReads, fastPlan: { [self] request in cachedTokenResponse(&request).map(FastPathPlan.answer) },
                   route: { [self] context throws(GatewayError) in
            let account = try access.requireAccount(&context), accountId = account.id
            let ref = Self.issueRef(context.request)
            // E30: from a covered address the institution's issues are the account's too (and,
            // the first time, recorded in its history).
            let requester = requesters.requester(context.request, actingFor: account)
            return try tokenResponse(accountId, ref, try entitlements.decision(of: accountId, ref, for: requester).entitlement,
                                     reader: { [self] () throws(GatewayError) in
                                         try entitlements.downloader(of: accountId, ref, for: requester)
                                     })
        })
    }

    package static func issueRef(_ request: HTTPRequest) -> IssueRef {
        IssueRef(publicationId: request.parameter("publicationId"), issueId: request.parameter("issueId"))
    }

    /// The route's answer from memory only; nil when the principal or the account's answer would
    /// need the store, or an institution covers the address (E30: the route adds its grant).
    package func cachedTokenResponse(_ request: inout HTTPRequest) -> HTTPResponse? {
        let accountId = request.parameter("accountId")
        let ref = Self.issueRef(request)
        // Facts are kept only for an account that exists, so a service key needs no lookup.
        guard settings.edge.signsQuickly, let principal = access.authenticator.cachedPrincipal(&request), principal.mayActFor(account: accountId),
              let decision = entitlements.keptDecision(of: accountId, ref, for: requesters.requester(request, records: false))
        else { return nil }
        do throws(GatewayError) {
            return try tokenResponse(accountId, ref, decision.entitlement)
        } catch {
            return error.response
        }
    }

    /// A token for a visible, entitled issue (E16), its `sub` `accountId` (or an institution's,
    /// E30); 404 for an issue the reader cannot see (`entitlement` nil), 403 `not_entitled` with
    /// the nearest reason (E20) otherwise.
    /// E36: the answer is recorded as the download of `reader` (the route's: the account, or the
    /// institution only whose coverage entitles the issue), else of `accountId` or of the
    /// institution whose token it is (`sub` `institution:…`).
    package func tokenResponse(_ accountId: String, _ ref: IssueRef, _ entitlement: IssueEntitlement?,
                               reader: () throws(GatewayError) -> DownloadReader? = { nil }) throws(GatewayError) -> HTTPResponse {
        guard let entitlement else {
            throw .notFound("no issue \(ref.issueId) in \(ref.publicationId)")
        }
        guard entitlement.entitled else {
            throw .notEntitled(issueId: ref.issueId,
                               reason: (entitlement.reasons.first ?? EntitlementReason.noPurchase).rawValue)
        }
        let paths = entitlement.issue.assets.map(\.path)
        let signed: SignedDownloadToken
        let grant: EdgeGrant
        let now = clock.now()
        do {
            signed = try signer.sign(subject: accountId, publication: ref.publicationId, issue: ref.issueId,
                                     paths: paths, now: now, random: random)
            // tokens.md, Rules common to every format: one deadline, the JWS's own `exp`.
            grant = try settings.edge.grant(paths: paths, issuedAt: signed.claims.issuedAt, expires: signed.claims.expiresAt,
                                            jwsToken: signed.token)
        } catch {
            throw .failed("the token could not be signed")
        }
        counters.tokensIssued.increment()
        downloads.record(try reader() ?? Self.reader(subject: accountId), ref, at: now)
        return .json(200) { w in
            w.object { w in
                w.field("token", signed.token)
                w.field("expiresAt", signed.expiresAt.rfc3339)
                w.field("format", settings.edge.format.rawValue)
                w.key("urls")
                w.array { w in for url in grant.urls { w.string(url) } }
                if let cookies = grant.cookies {
                    w.key("cookies")
                    w.array { w in
                        for cookie in cookies {
                            w.object { w in
                                w.field("name", cookie.name)
                                w.field("value", cookie.value)
                                w.field("domain", cookie.domain)
                                w.field("path", cookie.path)
                                w.field("secure", true)
                                w.field("httpOnly", true)
                            }
                        }
                    }
                }
            }
        }
    }

    /// The reader a token's subject names (tokens.md: `institution:<id>` for an institution's).
    private static func reader(subject: String) -> DownloadReader {
        let prefix = "institution:"
        return subject.hasPrefix(prefix) ? .institution(String(subject.dropFirst(prefix.count))) : .account(subject)
    }
}
