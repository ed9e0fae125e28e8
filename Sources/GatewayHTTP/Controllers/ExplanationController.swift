import Entitle
import GatewayCore
import GatewayStore
import HTTPServer
import IssueCatalog
import Wire

/// `GET …/issues/{issueId}/explanation` (http-api.md, Support; E20): "why can't this reader open
/// the May issue?" answered from the gateway alone, with the evidence and a sentence to paste.
package struct ExplanationController: APIController {
    private let access: Access
    private let explanations: Explanations
    private let entitlements: EntitlementsNow
    private let requesters: Requesters
    private let clock: any GatewayClock

    package init(access: Access, explanations: Explanations, entitlements: EntitlementsNow, requesters: Requesters,
                 clock: any GatewayClock) {
        self.access = access; self.explanations = explanations; self.entitlements = entitlements; self.requesters = requesters
        self.clock = clock
    }

    package func register(_ router: APIRouterBuilder) {
        router.add("GET", "/v1/accounts/{accountId}/publications/{publicationId}/issues/{issueId}/explanation",
                   execution: .store, route: { [self] context throws(GatewayError) in
            let account = try access.requireAccount(&context), accountId = account.id
            let ref = IssueRef(publicationId: context.parameter("publicationId"), issueId: context.parameter("issueId"))
            let now = clock.now()
            // E16: a scheduled or retracted issue is listed to nobody but editors, so a reader's
            // own token is answered as if it did not exist (as the token route does); service
            // and admin keys, which support staff use, see it with the reason `scheduled` or
            // `retracted`.
            let readerOnly = account.principal.isReader
            // E30: from a covered address the institution's issues are the account's too. An
            // explanation gives no access, so it records nothing in the history it shows.
            let institution = try entitlements.institutionGrant(for: requesters.requester(context.request, records: false),
                                                                publicationId: ref.publicationId)
            guard let explanation = try explanations.explain(ref, for: accountId, adding: institution),
                  !readerOnly || explanation.issue.state(at: now) == .published else {
                throw .notFound("no issue \(ref.issueId) in \(ref.publicationId)")
            }
            let history = try explanations.evidenceHistory(explanation, of: accountId)
            return .json(200) { w in
                w.explanation(explanation, history: history, view: readerOnly ? .reader : .staff, now: now)
            }
        })
    }
}

extension JSONWriter {
    package mutating func explanation(_ e: IssueExplanation, history: [HistoryEvent] = [], view: HistoryView = .staff,
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
            // E24: a void or a cut, and the share of the price returned (thousandths of a percent).
            w.field("revocationType", t.revocationKind?.rawValue)
            w.key("revocationPercentage")
            if let percentage = t.revocationPercentage { w.int(percentage) } else { w.null() }
        }
    }
}
