import Entitle
import GatewayCore
import HTTPServer
import IssueCatalog
import Wire

/// The entitlements answer (http-api.md, Accounts and entitlements).
extension JSONWriter {
    package mutating func entitlements(accountId: String, _ entitlements: AccountEntitlements, grants: [Grant]) {
        object { w in
            w.field("accountId", accountId)
            w.key("subscriptions")
            w.array { w in for s in entitlements.subscriptions { w.subscription(s) } }
            w.key("purchases")
            w.array { w in for p in entitlements.purchases { w.purchase(p) } }
            w.key("grants")
            w.array { w in for g in grants { w.grant(g, withNote: false) } }
        }
    }

    /// A grant (E21), revoked ones too (`revokedAt` set). `issue` is set for a grant of one issue
    /// for good (an access code's, E22), null for a window over whole publications. The `note` is
    /// the publisher's own text (who, why): it goes back to the grant routes' callers (service
    /// and admin keys), not into the entitlements answer a reader's app reads.
    package mutating func grant(_ g: Grant, withNote: Bool) {
        object { w in
            w.field("grantId", g.grantId)
            w.field("source", g.source)
            w.field("externalId", g.externalId)
            w.key("publications")
            w.array { w in for p in g.publications { w.string(p) } }
            w.field("start", g.start.rfc3339)
            w.field("end", g.end?.rfc3339)
            w.key("issue")
            if let issue = g.issue { w.issueRef(issue) } else { w.null() }
            w.field("revokedAt", g.revokedAt?.rfc3339)
            if withNote { w.field("note", g.note) }
        }
    }

    package mutating func subscription(_ s: SubscriptionStatus) {
        object { w in
            w.field("originalTransactionId", s.originalTransactionId)
            w.field("productId", s.productId)
            w.field("store", s.store.rawValue)
            w.field("environment", s.environment.rawValue)
            w.field("state", s.state.rawValue)
            w.key("entitlementCode")
            w.double(s.entitlementCode)
            w.field("expiresAt", s.expiresAt?.rfc3339)
            w.field("willRenew", s.willRenew)
            w.field("renewsInto", s.renewsInto)
            w.field("gracePeriodExpiresAt", s.gracePeriodExpiresAt?.rfc3339)
            w.field("renewals", s.renewals)
            w.key("grants")
            w.array { w in for g in s.grants { w.string(g) } }
            w.field("trialOrIntroConsumedInGroup", s.trialOrIntroConsumedInGroup)
        }
    }

    package mutating func purchase(_ p: PurchaseStatus) {
        object { w in
            w.field("productId", p.productId)
            w.field("transactionId", p.transactionId)
            w.field("store", p.store.rawValue)
            w.field("environment", p.environment.rawValue)
            w.key("issue")
            if let issue = p.issue { w.issueRef(issue) } else { w.null() }
            w.field("state", p.state.rawValue)
        }
    }
}

extension HTTPResponse {
    /// The entitlements answer (http-api.md, Accounts and entitlements), which several areas
    /// return after a change.
    package static func entitlements(_ accountId: String, _ answer: AccountAnswer) -> HTTPResponse {
        .json(200) { w in w.entitlements(accountId: accountId, answer.entitlements, grants: answer.grants) }
    }
}
