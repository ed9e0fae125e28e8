import Entitle
import Wire

/// The history events a stored change makes (pure): what a transaction, a renewal info, an
/// ownership decision, a grant or a code redemption became, compared with what was stored before.
/// A change that alters nothing a reader or support agent could see (only the description's
/// source or `observedAt`, E1) makes no event.
public enum FactHistory {
    /// A transaction before (nil: not stored yet) and after the merge (E1): `transactionSeen`,
    /// `refund`, `refundReversed` and `transactionChanged`, in that order, as they apply.
    public static func events(_ old: Transaction?, _ new: Transaction) -> [(HistoryKind, JSONObject)] {
        var out: [(HistoryKind, JSONObject)] = []
        var details = identity(new)
        guard let old else {
            details.set("productId", .string(new.productId))
            details.set("purchaseDate", instant: new.purchaseDate)
            details.set("expiresDate", instant: new.expiresDate)
            if let offer = new.offer { details.set("offer", .string(offer.rawValue)) }
            if new.ownership != .purchased { details.set("ownership", .string(new.ownership.rawValue)) }
            if new.isUpgraded { details.set("isUpgraded", .bool(true)) }
            if new.isPartialRefund { details.set("revocationPercentage", percentage: new.revocationPercentage) }
            out.append((.transactionSeen, details))
            if isRefund(new) { out.append((.refund, refundDetails(new))) }
            return out
        }
        if isRefund(new), !isRefund(old) || old.revocationDate != new.revocationDate
            || old.revocationKind != new.revocationKind || old.revocationPercentage != new.revocationPercentage {
            out.append((.refund, refundDetails(new)))
        }
        if isRefund(old), !isRefund(new) {
            var reversed = identity(new)
            reversed.set("productId", .string(new.productId))
            reversed.set("previousRevocationDate", instant: old.revocationDate)
            out.append((.refundReversed, reversed))
        }
        var changes: [String] = []
        if old.expiresDate != new.expiresDate {
            changes.append("expiryMoved")
            details.set("expiresDate", instant: new.expiresDate)
            details.set("previousExpiresDate", instant: old.expiresDate)
        }
        if new.isUpgraded, !old.isUpgraded {
            changes.append("upgraded")
            details.set("cut", instant: new.revocationDate)
        }
        if old.productId != new.productId {
            changes.append("productChanged")
            details.set("productId", .string(new.productId))
            details.set("previousProductId", .string(old.productId))
        }
        if old.purchaseDate != new.purchaseDate {
            changes.append("purchaseDateMoved")
            details.set("purchaseDate", instant: new.purchaseDate)
            details.set("previousPurchaseDate", instant: old.purchaseDate)
        }
        if new.isPartialRefund, old.revocationPercentage != new.revocationPercentage {
            changes.append("partialRefund")  // E24: recorded, changes no entitlement
            details.set("revocationPercentage", percentage: new.revocationPercentage)
        }
        if old.ownership != new.ownership {
            changes.append("ownershipTypeChanged")
            details.set("ownership", .string(new.ownership.rawValue))
        }
        if !changes.isEmpty {
            details.set("changes", .array(changes.map(JSONValue.string)))
            out.append((.transactionChanged, details))
        }
        return out
    }

    /// A renewal info before and after the merge: one `renewalInfoChanged` listing what changed
    /// (`new` for the first one), with the values now held; none when nothing did.
    public static func event(_ old: RenewalInfo?, _ new: RenewalInfo) -> (HistoryKind, JSONObject)? {
        var changes: [String] = []
        if let old {
            if old.autoRenewStatus != new.autoRenewStatus { changes.append("autoRenewStatus") }
            if old.autoRenewProductId != new.autoRenewProductId { changes.append("autoRenewProductId") }
            if old.expirationIntent != new.expirationIntent { changes.append("expirationIntent") }
            if old.isInBillingRetry != new.isInBillingRetry { changes.append("isInBillingRetry") }
            if old.gracePeriodExpiresDate != new.gracePeriodExpiresDate { changes.append("gracePeriodExpiresDate") }
            if old.priceConsentStatus != new.priceConsentStatus { changes.append("priceConsentStatus") }
            if old.productId != new.productId { changes.append("productId") }
            if old.pausedAt != new.pausedAt { changes.append("pausedAt") }  // E27
            if old.resumesAt != new.resumesAt { changes.append("resumesAt") }
            guard !changes.isEmpty else { return nil }
        } else {
            changes = ["new"]
        }
        var details = subscription(new.subscriptionKey)
        details.set("changes", .array(changes.map(JSONValue.string)))
        details.set("autoRenewStatus", .bool(new.autoRenewStatus))
        if let product = new.autoRenewProductId { details.set("autoRenewProductId", .string(product)) }
        if let intent = new.expirationIntent { details.set("expirationIntent", .integer(Int64(intent.rawValue))) }
        details.set("isInBillingRetry", .bool(new.isInBillingRetry))
        details.set("gracePeriodExpiresDate", instant: new.gracePeriodExpiresDate)
        if let consent = new.priceConsentStatus { details.set("priceConsentStatus", .integer(Int64(consent))) }
        if new.pausedAt != nil || old?.pausedAt != nil {
            details.set("pausedAt", instant: new.pausedAt)
            details.set("resumesAt", instant: new.resumesAt)
        }
        return (.renewalInfoChanged, details)
    }

    /// E4's decision as two events: `ownershipBound` on the new owner, `ownershipTransferredAway`
    /// on the account that lost it (if any), each naming the other.
    public static func ownership(_ key: SubscriptionKey, owner: String, previous: String?)
        -> [(accountId: String, kind: HistoryKind, details: JSONObject)] {
        var bound = subscription(key)
        guard let previous else { return [(owner, .ownershipBound, bound)] }
        bound.set("fromAccountId", .string(previous))
        var away = subscription(key)
        away.set("toAccountId", .string(owner))
        return [(owner, .ownershipBound, bound), (previous, .ownershipTransferredAway, away)]
    }

    /// A grant's terms (E21), for `grantGiven`, `grantRevoked` and `codeRedeemed`, with who acted
    /// (`by`) when known.
    public static func grant(_ grant: Grant, by actor: String? = nil) -> JSONObject {
        var details = JSONObject()
        details.set("grantId", .string(grant.grantId))
        details.set("grantSource", .string(grant.source))
        details.set("externalId", .string(grant.externalId))
        details.set("publications", .array(grant.publications.map(JSONValue.string)))
        if let issue = grant.issue { details.set("issueId", .string(issue.issueId)) }
        details.set("start", instant: grant.start)
        details.set("end", instant: grant.end)
        if let revokedAt = grant.revokedAt { details.set("revokedAt", instant: revokedAt) }
        if let note = grant.note { details.set("note", .string(note)) }
        if let actor { details.set("by", .string(actor)) }
        return details
    }

    /// What an institution gives (E30), for `grantGiven`, `grantChanged` and `grantRevoked` with
    /// the source `institution`: the grant the rules take it as, the institution's id and name,
    /// its publications and interval.
    public static func institution(_ institution: Institution) -> JSONObject {
        var details = JSONObject()
        details.set("grantId", .string(institution.grantId))
        details.set("institutionId", .string(institution.institutionId))
        details.set("institutionName", .string(institution.name))
        details.set("publications", .array(institution.publications.map(JSONValue.string)))
        details.set("start", instant: institution.start)
        details.set("end", instant: institution.end)
        return details
    }

    /// An institution replaced (E30): its new terms with `changes` naming what it gives
    /// differently (`publications`, `start`, `end`) and the previous values; nil when it gives
    /// the same (a new name or networks say who it is and where, not what it gives).
    public static func institution(_ old: Institution, changedTo new: Institution) -> JSONObject? {
        var details = institution(new)
        var changes: [String] = []
        if Set(old.publications) != Set(new.publications) {
            changes.append("publications")
            details.set("previousPublications", .array(old.publications.map(JSONValue.string)))
        }
        if old.start != new.start {
            changes.append("start")
            details.set("previousStart", instant: old.start)
        }
        if old.end != new.end {
            changes.append("end")
            details.set("previousEnd", instant: old.end)
        }
        guard !changes.isEmpty else { return nil }
        details.set("changes", .array(changes.map(JSONValue.string)))
        return details
    }

    /// Where a batch of App Store facts came from, when its caller did not say: the sources its
    /// descriptions name (a status poll's receipt reads as `receipt` unless the poller says `poll`).
    public static func source(of transactions: [Transaction], _ renewals: [RenewalInfo]) -> HistorySource {
        switch transactions.first?.source ?? renewals.first?.source ?? .receipt {
        case .receipt: .receipt
        case .signedTransaction: .signedTransaction
        case .notificationV1: .notificationV1
        case .notificationV2: .notificationV2
        case .statusPoll: .poll
        case .googlePlayApi: .googlePlayApi
        case .rtdn: .rtdn
        case .stripeEvent: .stripeEvent
        case .stripeApi: .stripeApi
        }
    }

    /// E6: revoked, and not by an upgrade (E7: an upgrade's revocation date is a cut).
    private static func isRefund(_ t: Transaction) -> Bool { t.revocationDate != nil && !t.isUpgraded }

    private static func identity(_ t: Transaction) -> JSONObject {
        var details = subscription(t.subscriptionKey)
        details.set("transactionId", .string(t.transactionId))
        return details
    }

    private static func subscription(_ key: SubscriptionKey) -> JSONObject {
        var details = JSONObject()
        details.set("store", .string(key.store.rawValue))
        details.set("environment", .string(key.environment.rawValue))
        details.set("originalTransactionId", .string(key.originalTransactionId))
        return details
    }

    private static func refundDetails(_ t: Transaction) -> JSONObject {
        var details = identity(t)
        details.set("productId", .string(t.productId))
        details.set("revocationDate", instant: t.revocationDate)
        if let reason = t.revocationReason { details.set("revocationReason", .integer(Int64(reason))) }
        // E24: a void (E6) or a cut, and the share of the price returned.
        if let kind = t.effectiveRevocationKind {
            details.set("revocationType", .string(kind.rawValue))
            if kind.isCut { details.set("cut", instant: t.revocationDate) }
        }
        if t.revocationPercentage != nil { details.set("revocationPercentage", percentage: t.revocationPercentage) }
        return details
    }
}

extension JSONObject {
    /// E24: thousandths of a percent, as given (58000 is 58 %).
    mutating func set(_ name: String, percentage: Int?) {
        set(name, percentage.map { .integer(Int64($0)) } ?? .null)
    }

    /// An instant as RFC 3339, `null` when absent or open-ended.
    mutating func set(_ name: String, instant: Instant?) {
        guard let instant, instant != .distantFuture else { return set(name, .null) }
        set(name, .string(instant.rfc3339))
    }
}
