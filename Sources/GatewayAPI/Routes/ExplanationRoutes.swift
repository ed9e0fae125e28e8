import Entitle
import GatewayStore
import HTTPServer
import IssueCatalog
import Wire

/// `GET …/issues/{issueId}/explanation` (http-api.md, Support; E20): "why can't this reader open
/// the May issue?" answered from the gateway alone, with the evidence and a sentence to paste.
extension Gateway {
    func registerExplanationRoutes(_ router: APIRouterBuilder) {
        router.add("GET", "/v1/accounts/{accountId}/publications/{publicationId}/issues/{issueId}/explanation",
                   execution: .store, handler: apiHandler { [self] request throws(APIError) in
            let accountId = try requireAccount(request)
            let ref = IssueRef(publicationId: request.parameter("publicationId"), issueId: request.parameter("issueId"))
            let now = clock.now()
            // E16: a scheduled or retracted issue is listed to nobody but editors, so a reader's
            // own token is answered as if it did not exist (as the token route does); service
            // and admin keys, which support staff use, see it with the reason `scheduled` or
            // `retracted`.
            let readerOnly = try authenticator.principal(request).isReader
            guard let explanation = try explain(ref, for: accountId),
                  !readerOnly || explanation.issue.state(at: now) == .published else {
                throw .notFound("no issue \(ref.issueId) in \(ref.publicationId)")
            }
            let history = try evidenceHistory(explanation, of: accountId)
            return .json(200) { w in
                w.explanation(explanation, history: history, view: readerOnly ? .reader : .staff, now: now)
            }
        })
    }

    /// The engine's answer for one issue with its evidence; nil for an issue the catalog lacks.
    /// Shared with `issue-gateway account explain`.
    func explain(_ ref: IssueRef, for accountId: String) throws(APIError) -> IssueExplanation? {
        let facts = try stored { () throws(StoreError) in try accounts.facts(of: accountId) }
        let state = catalog.state
        let entitlements = evaluate(facts, state, clock.now())
        return IssueExplainer.explain(ref, entitlements: entitlements, facts: facts, catalog: state.snapshot)
    }
}

extension Gateway {
    /// The history events behind the evidence: how the entitling and the refunded transactions
    /// arrived and changed, how their subscriptions came to the account, and the entitling grant's
    /// events (empty for facts older than the history).
    func evidenceHistory(_ e: IssueExplanation, of accountId: String) throws(APIError) -> [HistoryEvent] {
        let evidence = [e.transaction, e.refunded].compactMap { $0 }
        guard !evidence.isEmpty || e.grant != nil else { return [] }
        return try stored { () throws(StoreError) in
            try store.historyEvents(ofAccount: accountId, transactions: Set(evidence.map(\.transactionId)),
                                    subscriptions: Set(evidence.map(\.originalTransactionId)), grants: Set([e.grant?.grantId].compactMap { $0 }))
        }
    }
}

extension JSONWriter {
    mutating func explanation(_ e: IssueExplanation, history: [HistoryEvent] = [], view: HistoryView = .staff,
                              now: Instant) {
        object { w in
            w.key("issue")
            w.catalogIssue(e.issue, now: now)
            w.field("entitled", e.entitled)
            w.key("reasons")
            w.array { w in for reason in e.reasons { w.string(reason.rawValue) } }
            w.field("summary", e.summary)
            w.key("evidence")
            w.object { w in
                w.period("periodContaining", e.periodContaining)
                w.period("periodBefore", e.periodBefore)
                w.period("periodAfter", e.periodAfter)
                w.evidence("transaction", e.transaction)
                w.evidence("refunded", e.refunded)
                w.key("grant")
                if let grant = e.grant { w.grant(grant, withNote: false) } else { w.null() }
                w.key("history")
                w.array { w in for event in history { w.historyEvent(event, view: view) } }
            }
        }
    }

    private mutating func period(_ name: String, _ period: ActivePeriod?) {
        key(name)
        guard let period else { return null() }
        object { w in
            w.field("start", period.start.rfc3339)
            w.field("end", period.end == .distantFuture ? nil : period.end.rfc3339)
        }
    }

    private mutating func evidence(_ name: String, _ t: TransactionEvidence?) {
        key(name)
        guard let t else { return null() }
        object { w in
            w.field("transactionId", t.transactionId)
            w.field("originalTransactionId", t.originalTransactionId)
            w.field("productId", t.productId)
            w.field("store", t.store.rawValue)
            w.field("environment", t.environment.rawValue)
            w.field("purchaseDate", t.purchaseDate.rfc3339)
            w.field("expiresDate", t.expiresDate?.rfc3339)
            w.field("revocationDate", t.revocationDate?.rfc3339)
        }
    }
}
