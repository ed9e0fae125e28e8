import Entitle
import Wire

/// What giving a grant did (http-api.md: 201 created, 200 when sent again unchanged, 409 when
/// its `(source, externalId)` names a grant with other terms or a revoked one).
public enum GrantOutcome: Sendable, Equatable {
    case created(Grant)
    case unchanged(Grant)
    case conflicting(Grant)
    /// No such account; nothing was written.
    case unknownAccount
}

/// E21, one unit of work each: the grant, the account's facts version and its history change
/// together, so every cache of the account's answer is invalidated with the same commit.
extension GatewayStore {
    /// `actor` (who gave it: `admin`, `service:<keyId>`) goes into the history event as `by`.
    public func give(_ grant: Grant, by actor: String? = nil, events: EventPolicy = .off) throws(StoreError) -> GrantOutcome {
        try write { tx throws(StoreError) in
            guard try tx.account(id: grant.accountId) != nil else { return .unknownAccount }
            if let existing = try tx.grant(source: grant.source, externalId: grant.externalId) {
                // A revoked grant is as if never given (E6 for grants), so a resend must not look
                // like success to a backend that resyncs: it is a conflict, whatever its terms.
                return existing.sameTerms(as: grant) && existing.revokedAt == nil ? .unchanged(existing) : .conflicting(existing)
            }
            // Checked above on this unit of work's snapshot: a grant another writer inserted since
            // makes PostgreSQL run it again (serialization), where the check finds it.
            guard try tx.insert(grant) else { throw Self.broken("grant \(grant.grantId) taken") }
            try tx.bumpFactsVersion(ofAccount: grant.accountId)
            try tx.append(HistoryEvent(accountId: grant.accountId, at: grant.createdAt, kind: .grantGiven, source: .grant,
                                       details: FactHistory.grant(grant, by: actor)))
            try EntitlementChangeEvent.record(accountId: grant.accountId, causes: [.grant], at: grant.createdAt,
                                              policy: events, tx)
            return .created(grant)
        }
    }

    /// Revokes one of the account's grants (E6 for grants); nil when the account holds no such
    /// grant. Revoking a revoked grant changes nothing.
    public func revokeGrant(_ grantId: String, ofAccount accountId: String, at instant: Instant,
                            by actor: String? = nil, events: EventPolicy = .off) throws(StoreError) -> Grant? {
        try write { tx throws(StoreError) in
            guard let grant = try tx.grant(id: grantId), grant.accountId == accountId else { return nil }
            guard grant.revokedAt == nil else { return grant }
            try tx.setRevoked(grantId: grantId, at: instant)
            try tx.bumpFactsVersion(ofAccount: accountId)
            try EntitlementChangeEvent.record(accountId: accountId, causes: [.grantRevoked], at: instant, policy: events, tx)
            var revoked = grant
            revoked.revokedAt = instant
            try tx.append(HistoryEvent(accountId: accountId, at: instant, kind: .grantRevoked, source: .grant,
                                       details: FactHistory.grant(revoked, by: actor)))
            return revoked
        }
    }
}
