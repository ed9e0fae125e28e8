import Entitle
import Wire

/// What applying part of a list did: its counts, and the accounts whose claimed grant moved (their
/// cached answers must go).
public struct SubscriberListStep: Sendable, Equatable {
    public var counts = SubscriberListCounts()
    public var touchedAccounts: Set<String> = []

    public init() {}
}

/// What a claim did (E29, http-api.md `POST /v1/accounts/{accountId}/claims`).
public enum ClaimOutcome: Sendable, Equatable {
    /// The account now holds the subscriber's grant; `previousOwner` lost it (E4 `transfer`).
    case claimed(Grant, previousOwner: String?)
    /// The account held it already: nothing changed.
    case unchanged(Grant)
    /// Unknown publication or number, or a wrong verification value: indistinguishable.
    case notFound
    /// Another account holds it and the policy is `keep` (E4).
    case ownedByOtherAccount
    /// No such account; nothing was written.
    case unknownAccount
}

/// E29, print subscriber lists and claims. A list is applied in batches of rows, one unit of work
/// each, so a list of a million rows never holds the writer (or memory) for all of them at once;
/// every row it names is stamped with its list id, which is what lets a whole list end the rows it
/// did not name afterwards, and notice a number named twice.
extension GatewayStore {
    /// Applies `rows` of `list`: each row adds a subscriber or moves its terms (E29's rule in
    /// `PrintSubscriberTerms.following`); a claimed grant follows its subscriber.
    /// With `lease`, the list's hold on its publication's lock is renewed in the same unit of work
    /// (nil, nothing applied, when another list took it over).
    public func apply(_ rows: [ListedSubscriber], of list: SubscriberImport, holding lease: SubscriberListLease? = nil,
                      events: EventPolicy = .off) throws(StoreError) -> SubscriberListStep? {
        try write { tx throws(StoreError) in
            guard try Self.renew(lease, of: list, tx) else { return nil }
            var step = SubscriberListStep()
            for row in rows {
                let listed = PrintSubscriber(publicationId: list.publicationId, customerNumber: row.customerNumber,
                                             verificationHash: row.verificationHash, terms: row.terms,
                                             listId: list.listId, updatedAt: list.receivedAt)
                guard let existing = try tx.subscriber(publicationId: list.publicationId, customerNumber: row.customerNumber) else {
                    try tx.save(listed)
                    step.counts.added += 1
                    continue
                }
                guard existing.listId != list.listId else {
                    step.counts.reject(line: row.line, "customerNumber \(row.customerNumber) is given more than once in this list")
                    continue
                }
                var moved = listed
                moved.terms = existing.terms.following(row.terms, at: list.receivedAt)
                if moved.terms == existing.terms && moved.verificationHash == existing.verificationHash {
                    try tx.markListed(publicationId: list.publicationId, customerNumber: row.customerNumber, listId: list.listId)
                    step.counts.unchanged += 1
                    continue
                }
                try tx.save(moved)
                if moved.terms.hasEnded(by: list.receivedAt) && !existing.terms.hasEnded(by: list.receivedAt) {
                    step.counts.ended += 1
                } else {
                    step.counts.changed += 1
                }
                if moved.terms != existing.terms, let account = try follow(moved, at: list.receivedAt, events: events, tx) {
                    step.touchedAccounts.insert(account)
                }
            }
            return step
        }
    }

    /// E29: after a whole list, ends up to `limit` of the publication's subscribers it did not
    /// name, at the list's time or their own earlier end; call again until `ended` is 0.
    /// `lease` as for `apply`.
    public func endMissing(from list: SubscriberImport, limit: Int, holding lease: SubscriberListLease? = nil,
                           events: EventPolicy = .off) throws(StoreError) -> SubscriberListStep? {
        try write { tx throws(StoreError) in
            guard try Self.renew(lease, of: list, tx) else { return nil }
            var step = SubscriberListStep()
            let missing = try tx.subscribers(of: list.publicationId, notInList: list.listId, runningAt: list.receivedAt,
                                             limit: limit)
            for var subscriber in missing {
                subscriber.terms = subscriber.terms.endingMissing(at: list.receivedAt)
                subscriber.listId = list.listId
                subscriber.updatedAt = list.receivedAt
                try tx.save(subscriber)
                step.counts.ended += 1
                if let account = try follow(subscriber, at: list.receivedAt, events: events, tx) {
                    step.touchedAccounts.insert(account)
                }
            }
            return step
        }
    }

    /// Records a list received or finished, with its counts.
    public func record(_ list: SubscriberImport) throws(StoreError) {
        try write { tx throws(StoreError) in try tx.save(list) }
    }

    /// The lists received, newest first.
    public func subscriberImports(limit: Int) throws(StoreError) -> [SubscriberImport] {
        try read { tx throws(StoreError) in try tx.subscriberImports(limit: limit) }
    }

    /// A subscriber and the account that holds its grant, if any.
    public func subscriber(publicationId: String, customerNumber: String) throws(StoreError)
        -> (subscriber: PrintSubscriber, claimedBy: String?)? {
        try read { tx throws(StoreError) in
            guard let subscriber = try tx.subscriber(publicationId: publicationId, customerNumber: customerNumber) else {
                return nil
            }
            let grant = try tx.grant(source: PrintSubscriber.grantSource, externalId: subscriber.grantExternalId)
            return (subscriber, grant.flatMap { $0.revokedAt == nil ? $0.accountId : nil })
        }
    }

    /// E29: the account claims the subscriber when `verifies` accepts the stored verification
    /// hash (it is asked for a stand-in when there is no such subscriber, so both cost the same).
    /// One subscriber serves one account at a time under `policy` (E4).
    public func claimSubscriber(publicationId: String, customerNumber: String, for accountId: String,
                                policy: OwnershipPolicy, grantId: String, at instant: Instant,
                                events: EventPolicy = .off,
                                verifies: (String) -> Bool) throws(StoreError) -> ClaimOutcome {
        try write { tx throws(StoreError) in
            guard try tx.account(id: accountId) != nil else { return .unknownAccount }
            let subscriber = try tx.subscriber(publicationId: publicationId, customerNumber: customerNumber)
            let matches = verifies(subscriber?.verificationHash ?? Self.standInHash)
            guard let subscriber, matches else { return .notFound }
            let fresh = Grant(grantId: grantId, accountId: accountId, source: PrintSubscriber.grantSource,
                              externalId: subscriber.grantExternalId, publications: [publicationId],
                              start: subscriber.terms.start, end: subscriber.terms.end, createdAt: instant)
            guard var grant = try tx.grant(source: fresh.source, externalId: fresh.externalId) else {
                guard try tx.insert(fresh) else { throw Self.broken("grant \(fresh.grantId) taken") }
                try given(fresh, previousOwner: nil, at: instant, events: events, tx)
                return .claimed(fresh, previousOwner: nil)
            }
            if grant.revokedAt == nil && grant.accountId == accountId { return .unchanged(grant) }
            let previous = grant.revokedAt == nil ? grant.accountId : nil
            if previous != nil && policy == .keep { return .ownedByOtherAccount }
            grant.accountId = accountId
            grant.start = subscriber.terms.start
            grant.end = subscriber.terms.end
            grant.revokedAt = nil
            try tx.update(grant)
            try given(grant, previousOwner: previous, at: instant, events: events, tx)
            return .claimed(grant, previousOwner: previous)
        }
    }

    /// Support's lookup by (publication, customer number): the account holding the claim.
    public func lookup(publicationId: String, customerNumber: String) throws(StoreError) -> OwnerLookup? {
        guard let found = try subscriber(publicationId: publicationId, customerNumber: customerNumber),
              let accountId = found.claimedBy else { return nil }
        return OwnerLookup(accountId: accountId)
    }

    /// What no verification hash is: 64 hex digits no HMAC gives in practice.
    private static var standInHash: String { String(repeating: "0", count: 64) }

    /// The claimed grant's history and versions: `grantGiven` on the claimer, and on the account
    /// that lost it (E4) `ownershipTransferredAway`.
    private func given(_ grant: Grant, previousOwner: String?, at instant: Instant, events: EventPolicy,
                       _ tx: any WriteTransaction) throws(StoreError) {
        try tx.bumpFactsVersion(ofAccount: grant.accountId)
        var details = FactHistory.grant(grant)
        if let previousOwner { details.set("fromAccountId", .string(previousOwner)) }
        try tx.append(HistoryEvent(accountId: grant.accountId, at: instant, kind: .grantGiven, source: .print, details: details))
        try EntitlementChangeEvent.record(accountId: grant.accountId, causes: [.grant], at: instant, policy: events, tx)
        guard let previousOwner else { return }
        try tx.bumpFactsVersion(ofAccount: previousOwner)
        var away = FactHistory.grant(grant)
        away.set("toAccountId", .string(grant.accountId))
        try tx.append(HistoryEvent(accountId: previousOwner, at: instant, kind: .ownershipTransferredAway, source: .print,
                                   details: away))
        try EntitlementChangeEvent.record(accountId: previousOwner, causes: [.transfer], at: instant, policy: events, tx)
    }

    /// E29: the subscriber's claimed grant takes its new terms; the account holding it, if any.
    private func follow(_ subscriber: PrintSubscriber, at instant: Instant, events: EventPolicy,
                        _ tx: any WriteTransaction) throws(StoreError) -> String? {
        guard var grant = try tx.grant(source: PrintSubscriber.grantSource, externalId: subscriber.grantExternalId),
              grant.revokedAt == nil,
              grant.start != subscriber.terms.start || grant.end != subscriber.terms.end else { return nil }
        grant.start = subscriber.terms.start
        grant.end = subscriber.terms.end
        try tx.update(grant)
        try tx.bumpFactsVersion(ofAccount: grant.accountId)
        try tx.append(HistoryEvent(accountId: grant.accountId, at: instant, kind: .grantChanged, source: .print,
                                   details: FactHistory.grant(grant)))
        try EntitlementChangeEvent.record(accountId: grant.accountId, causes: [.grant], at: instant, policy: events, tx)
        return grant.accountId
    }
}
