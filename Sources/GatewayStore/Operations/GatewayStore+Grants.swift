import Entitle
import Wire

/// What giving a grant did (http-api.md: 201 created, 200 when sent again unchanged, 409 when
/// its `(source, externalId)` names a grant with other terms).
public enum GrantOutcome: Sendable, Equatable {
    case created(Grant)
    case unchanged(Grant)
    case conflicting(Grant)
}

/// E21, one unit of work each: the grant and the account's facts version change together, so
/// every cache of the account's answer is invalidated with the same commit.
extension GatewayStore {
    public func give(_ grant: Grant, events: EventPolicy = .off) throws(StoreError) -> GrantOutcome {
        try write { tx throws(StoreError) in
            guard try tx.account(id: grant.accountId) != nil else { throw .notFound("account \(grant.accountId)") }
            if let existing = try tx.grant(source: grant.source, externalId: grant.externalId) {
                return existing.sameTerms(as: grant) ? .unchanged(existing) : .conflicting(existing)
            }
            try tx.insert(grant)
            try tx.bumpFactsVersion(ofAccount: grant.accountId)
            try EntitlementChangeEvent.record(accountId: grant.accountId, causes: [.grant], at: grant.createdAt,
                                              policy: events, tx)
            return .created(grant)
        }
    }

    /// Revokes one of the account's grants (E6 for grants); nil when the account holds no such
    /// grant. Revoking a revoked grant changes nothing.
    public func revokeGrant(_ grantId: String, ofAccount accountId: String, at instant: Instant,
                            events: EventPolicy = .off) throws(StoreError) -> Grant? {
        try write { tx throws(StoreError) in
            guard let grant = try tx.grant(id: grantId), grant.accountId == accountId else { return nil }
            guard grant.revokedAt == nil else { return grant }
            try tx.setRevoked(grantId: grantId, at: instant)
            try tx.bumpFactsVersion(ofAccount: accountId)
            try EntitlementChangeEvent.record(accountId: accountId, causes: [.grantRevoked], at: instant, policy: events, tx)
            var revoked = grant
            revoked.revokedAt = instant
            return revoked
        }
    }
}
