import Entitle
import Foundation
import GatewayCore
import GatewayStore
import HTTPServer
import IssueCatalog
import Wire

/// Accounts, receipts, entitlements and the reader's issue list (http-api.md, Accounts and
/// entitlements). Everything here reads or writes the store, so it runs on the store pool; posting
/// receipts also calls Apple, so it runs on the App Store pool.
package struct AccountController: APIController {
    private let access: Access
    private let readers: ReaderAccounts
    private let catalog: CatalogCache
    private let entitlements: EntitlementsNow
    private let requesters: Requesters
    private let appStore: AppStoreIngestion
    private let facts: FactIntake
    private let postedStatuses: PostedTransactionStatuses
    private let lists: ListResponder
    private let accountCreationLimit: KeyedRateLimiter<String>
    private let limits: APILimits
    private let clock: any GatewayClock

    package init(access: Access, readers: ReaderAccounts, catalog: CatalogCache, entitlements: EntitlementsNow,
                 requesters: Requesters, appStore: AppStoreIngestion, facts: FactIntake, postedStatuses: PostedTransactionStatuses,
                 lists: ListResponder, accountCreationLimit: KeyedRateLimiter<String>, limits: APILimits,
                 clock: any GatewayClock) {
        self.access = access; self.readers = readers; self.catalog = catalog
        self.entitlements = entitlements; self.requesters = requesters; self.appStore = appStore; self.facts = facts; self.postedStatuses = postedStatuses
        self.lists = lists
        self.accountCreationLimit = accountCreationLimit; self.limits = limits; self.clock = clock
    }

    package func register(_ router: APIRouterBuilder) {
        router.add("POST", "/v1/accounts", execution: .store, route: { [self] context throws(GatewayError) in
            try limitAccountCreation(context.request)
            let body = try RequestBody(context.request, optional: true)
            var appAccountToken: String?
            if let text = try body.optionalString("appAccountToken") {
                guard let uuid = UUID(uuidString: text) else { throw .invalid("appAccountToken must be a UUID") }
                appAccountToken = uuid.uuidString.lowercased()
            }
            let (account, token) = try readers.create(appAccountToken: appAccountToken)
            return .json(201) { w in
                w.object { w in
                    w.field("accountId", account.id)
                    w.field("accountToken", token)
                }
            }
        })
        // Calls Apple (verifyReceipt): on the pool sized for waiting.
        router.add("POST", "/v1/accounts/{accountId}/receipts", execution: .appStore,
                   maxBodyBytes: limits.receiptBodyBytes, route: { [self] context throws(GatewayError) in
            let account = try access.requireAccount(&context), accountId = account.id
            let (facts, signed) = try receiptFacts(RequestBody(context.request))
            try self.facts.save(facts, for: accountId)
            // Renewal info is not in a signed transaction: Apple's statuses bring it, in this
            // answer when Apple is quick, else stored in the background (http-api.md).
            postedStatuses.fetch(after: signed)
            return .entitlements(accountId, try entitlements.answer(of: accountId))
        })
        router.add("GET", "/v1/accounts/{accountId}/entitlements", execution: .storeReads, route: { [self] context throws(GatewayError) in
            let accountId = try access.requireAccount(&context).id
            return .entitlements(accountId, try entitlements.answer(of: accountId))
        })
        // A list kept in memory for a known principal is answered on the event loop (no thread hop).
        router.add("GET", "/v1/accounts/{accountId}/issues", execution: .storeReads,
                   fastPlan: { [self] request in issueListPlan(&request) },
                   route: { [self] context throws(GatewayError) in
            let account = try access.requireAccount(&context), accountId = account.id
            let query = context.query
            let key = try IssueListKey(query), page = try ListPage(query)
            let state = catalog.state
            if let publicationId = key.publicationId, state.snapshot.publication(publicationId) == nil {
                throw .notFound("no publication \(publicationId)")
            }
            // E30: from a covered address the institution's issues are added (and, the first time,
            // recorded in the account's history).
            let answer = try entitlements.issueList(of: accountId, key, for: requesters.requester(context.request, actingFor: account),
                                                    in: state)
            return lists.listResponse(context.request, tag: issueListTag(answer, key, page, state)) {
                issueListBody(answer, key, page, state)
            }
        })
    }

    /// Anyone may create an account, so creation is rate-limited per client (`ClientKey`: an
    /// IPv4 address or an IPv6 /64); a request that came over no socket has no address and is
    /// not limited.
    private func limitAccountCreation(_ request: HTTPRequest) throws(GatewayError) {
        guard let source = request.sourceAddress else { return }
        if case .limited(let seconds) = accountCreationLimit.take(ClientKey.of(source), now: clock.now()) {
            throw .rateLimited(retryAfterSeconds: seconds)
        }
    }

    /// An issue list planned from memory alone: a principal resolved before that may act for the
    /// account, and an answer kept for it that holds for the catalog and now. Nil whenever the
    /// store would be needed or the route has an error to answer; never blocks on anything but
    /// the caches' locks, so an event loop may call it inline. A 304 and a list compressed before
    /// cost a hash of small inputs and no rendering; a list to compress is rendered here once and
    /// compressed on the pool.
    package func issueListPlan(_ request: inout HTTPRequest) -> FastPathPlan? {
        let accountId = request.parameter("accountId")
        // An answer is kept only for an account that exists, so a service key needs no lookup.
        guard let principal = access.authenticator.cachedPrincipal(&request), principal.mayActFor(account: accountId) else {
            return nil
        }
        let query = request.queryParameters()
        guard let key = try? IssueListKey(query), let page = try? ListPage(query) else { return nil }
        let state = catalog.state
        if let publicationId = key.publicationId, state.snapshot.publication(publicationId) == nil { return nil }
        // E30: an institution covering the address adds its issues; the handler answers that.
        // Nothing is recorded from memory: only the handler gives an institution's issues.
        guard let answer = entitlements.keptIssueList(of: accountId, key, for: requesters.requester(request, records: false),
                                                      in: state) else {
            return nil
        }
        return lists.listPlan(request, tag: issueListTag(answer, key, page, state)) {
            issueListBody(answer, key, page, state)
        }
    }

    /// The list's entity tag from what its body is rendered from: the catalog's content, the
    /// engine's compact answer (itself from the account's facts and the time), the list asked
    /// for and the page. Hundreds of bytes hashed, never the rendered list.
    private func issueListTag(_ answer: IssueListAnswer, _ key: IssueListKey, _ page: ListPage,
                              _ state: CatalogState) -> EntityTag {
        var hash = state.fingerprint
        hash.combine("account-issues")
        hash.combine(answer.fingerprint)
        hash.combine(key.publicationId ?? "")
        hash.combine(UInt64(key.publicationId == nil ? 0 : 1) << 1 | UInt64(key.entitledOnly ? 1 : 0))
        page.combine(into: &hash)
        return EntityTag(hash)
    }

    /// The list rendered from the catalog's pre-rendered issues around this reader's reasons.
    private func issueListBody(_ answer: IssueListAnswer, _ key: IssueListKey, _ page: ListPage,
                               _ state: CatalogState) -> [UInt8] {
        if let publicationId = key.publicationId,
           let body = publicationListBody(answer, publicationId, entitledOnly: key.entitledOnly, page, state) {
            return body
        }
        return IssueListRendering.body(answer.issues(publicationId: key.publicationId, entitledOnly: key.entitledOnly),
                                       page, state, reasons: ReasonMembers.rendered)
    }

    /// One publication's list written straight from the answer's runs out of the catalog's flat
    /// items: no `IssueEntitlement` or `Issue` copies per item, which cost more than the bytes.
    /// Nil when the answer names a position the items do not hold (the general path then renders
    /// it from the issue itself).
    private func publicationListBody(_ answer: IssueListAnswer, _ publicationId: String, entitledOnly: Bool,
                                     _ page: ListPage, _ state: CatalogState) -> [UInt8]? {
        guard let items = state.items(of: publicationId) else { return nil }
        let issues = state.snapshot.issues(of: publicationId)
        var pager = ListPager(page)
        let capacity = 64 + min(items.count, page.limit ?? items.count) * IssueListRendering.renderedIssueBytes
        guard var body = items.listBody(capacity: capacity, { body in
            _ = answer.forEachListed(publicationId: publicationId, entitledOnly: entitledOnly) { index, reasonSet in
                // An index the items do not hold is passed on for `listBody` to refuse.
                guard index >= 0, index < issues.count else { return body(index, reasonSet) }
                if pager.admits({ issues[issues.startIndex + index] }) { body(index, reasonSet) }
            }
        }) else { return nil }
        if let next = pager.next { next.append(to: &body) }
        return body
    }


    /// `receiptData` and/or `signedTransactions`, each proved to come from Apple (E2). Nothing is
    /// stored until both are verified.
    /// Returns the facts and, apart, the signed transactions the app posted.
    private func receiptFacts(_ body: RequestBody) throws(GatewayError) -> (VerifiedFacts, [Transaction]) {
        let receiptData = try body.optionalString("receiptData")
        let signed = try body.optionalStrings("signedTransactions") ?? []
        guard receiptData != nil || !signed.isEmpty else {
            throw .invalid("send receiptData and/or signedTransactions")
        }
        guard signed.count <= limits.signedTransactionsPerRequest else {
            throw .tooLarge("at most \(limits.signedTransactionsPerRequest) signed transactions per request")
        }
        var facts = VerifiedFacts()
        if let receiptData {
            guard !receiptData.isEmpty else { throw .invalid("receiptData is empty") }
            guard receiptData.utf8.count <= limits.receiptDataBytes else {
                throw .invalid("receiptData is larger than \(limits.receiptDataBytes) bytes")
            }
            guard Data(base64Encoded: receiptData) != nil else { throw .invalid("receiptData is not base64") }
            facts.append(try appStore.verifyReceipt(receiptData))
        }
        // With the Server API configured, one signed transaction brings its
        // subscription's whole history (fetched once), bound to this account with the rest (E4).
        var posted: [Transaction] = []
        if !signed.isEmpty {
            let verified = try appStore.verifySignedTransactions(signed)
            posted = verified.transactions
            facts.append(appStore.withFullHistories(verified))
        }
        return (facts, posted)
    }

}

extension IssueListKey {
    /// 400 for a malformed `entitled` flag (the fast path then leaves the request to the handler).
    /// `query` is parsed once per request: it is read on every issue-list request, the fast
    /// path's included.
    package init(_ query: [(String, String)]) throws(GatewayError) {
        self.init(publicationId: query.first { $0.0 == "publication" }?.1,
                  entitledOnly: try QueryFlag.value(of: "entitled", in: query))
    }
}

extension JSONWriter {
    /// An issue list item (http-api.md): the issue's unchanging members, rendered once per catalog
    /// change, around this reader's `entitled` and `reasons` (E20).
    package mutating func accountIssue(_ fragment: IssueFragment, reasons: [UInt8]) {
        beginObject()
        members(fragment.members)
        members(reasons)
        members(fragment.assetsMember)
        endObject()
    }
}
