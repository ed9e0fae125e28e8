import Entitle
import GatewayStore
import IssueCatalog
import Wire

/// "Entitlements now" (E1–E20, E30): an account's facts evaluated against the catalog at the
/// clock's now, its issue-list answer remembered for the next list, and the share of the
/// institution covering the requester's address added to the account's own. Every route that
/// answers what an account may read comes here; a fast path and its route run the same plan
/// (`Reach.memory` stops where the store would be needed).
package struct EntitlementsNow: Sendable {
    private let accounts: AccountFactsCache
    /// The account's own answers, shared with the pushes of new issues.
    private let answers: OwnAnswers
    private let catalog: CatalogCache
    private let engine: EntitlementEvaluator
    private let institutions: Institutions
    private let given: InstitutionAccounts
    private let clock: any GatewayClock

    package init(accounts: AccountFactsCache, catalog: CatalogCache, engine: EntitlementEvaluator,
                 institutions: Institutions, given: InstitutionAccounts, clock: any GatewayClock) {
        self.accounts = accounts; self.catalog = catalog; self.engine = engine
        self.institutions = institutions; self.given = given; self.clock = clock
        answers = OwnAnswers(accounts: accounts, engine: engine, clock: clock)
    }

    /// The account's own answer (no institution's share), its issue-list answer remembered so the
    /// list a reader app fetches right after posting a receipt is served from memory.
    package func answer(of accountId: String) throws(GatewayError) -> AccountAnswer {
        let state = catalog.state
        let loaded = try stored { () throws(StoreError) in try accounts.load(accountId) }
        let entitlements = engine.evaluate(loaded.facts, state, clock.now())
        accounts.remember(entitlements.issueListAnswer, catalogRevision: state.revision, accountId, ticket: loaded.ticket)
        return AccountAnswer(entitlements: entitlements, grants: loaded.facts.grants)
    }

    /// The account's issue-list answer for `key`. E30: an institution covering the requester
    /// that gives the publication asked for adds its issues; that answer is the request's, so the
    /// account's remembered answers are neither read nor filled.
    /// `state` is the catalog the caller renders the answer against.
    package func issueList(of accountId: String, _ key: IssueListKey, for requester: Requester,
                           in state: CatalogState) throws(GatewayError) -> IssueListAnswer {
        guard let answer = try issueList(of: accountId, key, for: requester, in: state, reach: .store) else {
            preconditionFailure("an answer that may reach the store is always given")
        }
        return answer
    }

    /// The same plan from memory alone, for an event loop: nil whenever the store would be needed
    /// or an institution adds its issues (its route answers that).
    package func keptIssueList(of accountId: String, _ key: IssueListKey, for requester: Requester,
                               in state: CatalogState) -> IssueListAnswer? {
        (try? issueList(of: accountId, key, for: requester, in: state, reach: .memory)) ?? nil
    }

    private func issueList(of accountId: String, _ key: IssueListKey, for requester: Requester, in state: CatalogState,
                           reach: Reach) throws(GatewayError) -> IssueListAnswer? {
        switch try share(requester, publicationId: key.publicationId, reach: reach) {
        case .unknown: return nil
        case .institution(let institution, let grant):
            guard reach == .store else { return nil }
            record(institution, givenTo: accountId, requester)
            return try evaluate(accountId, adding: grant, state).issueListAnswer
        case .none:
            // An event loop renders only a kept answer: evaluating waits for a worker.
            guard reach == .store else { return answers.kept(of: accountId, publicationId: key.publicationId, in: state) }
            return try answers.answer(of: accountId, publicationId: key.publicationId, in: state, reach: .store)
        }
    }

    /// A download's decision on `ref` (E16, E12–E15, E20), with the share of the institution
    /// covering the requester (E30).
    package func decision(of accountId: String, _ ref: IssueRef, for requester: Requester) throws(GatewayError) -> IssueDecision {
        guard let decision = try decision(of: accountId, ref, for: requester, reach: .store) else {
            preconditionFailure("an answer that may reach the store is always given")
        }
        return decision
    }

    /// The same plan from memory alone: nil when the facts would need the store or an institution
    /// covers the requester (its route adds the grant).
    package func keptDecision(of accountId: String, _ ref: IssueRef, for requester: Requester) -> IssueDecision? {
        (try? decision(of: accountId, ref, for: requester, reach: .memory)) ?? nil
    }

    private func decision(of accountId: String, _ ref: IssueRef, for requester: Requester,
                          reach: Reach) throws(GatewayError) -> IssueDecision? {
        let state = catalog.state
        switch try share(requester, publicationId: ref.publicationId, reach: reach) {
        case .unknown: return nil
        case .institution(let institution, let grant):
            guard reach == .store else { return nil }
            record(institution, givenTo: accountId, requester)
            return IssueDecision(entitlement: try evaluate(accountId, adding: grant, state).entitlement(for: ref))
        case .none:
            // The account's own answer, the one its list keeps: after a list, no evaluation (E18).
            return try answers.answer(of: accountId, publicationId: ref.publicationId, in: state, reach: reach)
                .map { IssueDecision(entitlement: $0.entitlement(for: ref)) }
        }
    }

    /// The account's own entitlements, nothing remembered (the timeline).
    package func entitlements(of accountId: String) throws(GatewayError) -> AccountEntitlements {
        try evaluate(accountId, adding: nil, catalog.state)
    }

    /// E36: whose download a token for `ref` on `accountId`'s route is: the institution's when
    /// only its coverage entitles the issue (reports.md, Decisions), else the account's.
    package func downloader(of accountId: String, _ ref: IssueRef, for requester: Requester) throws(GatewayError) -> DownloadReader {
        if case .institution(let institution, _) = try share(requester, publicationId: ref.publicationId, reach: .store),
           try entitlements(of: accountId).entitlement(for: ref)?.entitled != true {
            return .institution(institution.institutionId)
        }
        return .account(accountId)
    }

    /// E30: the institution covering `address` (the first created where several do), or nil.
    package func institution(covering address: [UInt8]?) throws(GatewayError) -> Institution? {
        guard let address else { return nil }
        return try institutions.covering(address)
    }

    /// E30: an institution's readers, without an account, are entitled as if holding its grant.
    package func entitlements(of institution: Institution, in state: CatalogState) -> AccountEntitlements {
        engine.evaluate(AccountFacts(grants: [Institutions.grant(institution)]), state, clock.now())
    }

    /// The grant the institution covering the requester gives `publicationId`, or nil; records
    /// nothing (an explanation gives no access).
    package func institutionGrant(for requester: Requester, publicationId: String) throws(GatewayError) -> Grant? {
        if case .institution(_, let grant) = try share(requester, publicationId: publicationId, reach: .store) { return grant }
        return nil
    }

    private enum Share {
        /// Memory cannot tell whether an institution covers the requester.
        case unknown
        case none
        case institution(Institution, Grant)
    }

    /// E30: what the institution covering the requester gives `publicationId` (any of its
    /// publications when nil).
    private func share(_ requester: Requester, publicationId: String?, reach: Reach) throws(GatewayError) -> Share {
        guard let address = requester.address else { return .none }
        let institution: Institution?
        switch reach {
        case .memory:
            guard let coverage = institutions.coveringFromMemory(address) else { return .unknown }
            institution = coverage.institution
        case .store:
            institution = try institutions.covering(address)
        }
        guard let institution else { return .none }
        if let publicationId, !institution.publications.contains(publicationId) { return .none }
        return .institution(institution, Institutions.grant(institution))
    }

    /// E30: the first time an institution's grant is given to an account, its history records it
    /// (queued: the request that gave it stays a read).
    private func record(_ institution: Institution, givenTo accountId: String, _ requester: Requester) {
        guard requester.records, let address = requester.address else { return }
        given.record(institution, givenTo: accountId, address: address)
    }

    private func evaluate(_ accountId: String, adding grant: Grant?, _ state: CatalogState) throws(GatewayError) -> AccountEntitlements {
        var facts = try stored { () throws(StoreError) in try accounts.facts(of: accountId) }
        if let grant { facts.grants.append(grant) }
        return engine.evaluate(facts, state, clock.now())
    }
}
