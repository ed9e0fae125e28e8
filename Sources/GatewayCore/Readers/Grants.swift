import Entitle
import GatewayStore
import Wire

/// Grants beyond the stores (E21): a publisher's backend or the admin gives an account access no
/// store sold, and takes it back; the account's cached answers are dropped when either changes
/// them. Giving is idempotent by `(source, externalId)`; other terms under the same pair are a
/// conflict, not an edit in place (a changed interval is a new grant, the old one revoked).
package struct Grants: Sendable {
    private let store: any GatewayStore
    private let accounts: AccountFactsCache
    private let events: EventPolicy
    private let clock: any GatewayClock

    package init(store: any GatewayStore, accounts: AccountFactsCache, events: EventPolicy, clock: any GatewayClock) {
        self.store = store; self.accounts = accounts; self.events = events; self.clock = clock
    }

    /// The grant as stored and whether this call created it (false: the same grant was given before).
    package func give(_ grant: Grant, by actor: String?) throws(GatewayError) -> (grant: Grant, created: Bool) {
        switch try stored({ () throws(StoreError) in try store.give(grant, by: actor, events: events) }) {
        case .created(let created):
            accounts.invalidate([grant.accountId])
            return (created, true)
        case .unchanged(let existing):
            return (existing, false)
        case .conflicting(let existing) where existing.revokedAt != nil:
            throw .conflict("the grant \(grant.source)/\(grant.externalId) was revoked; give a new one under another externalId")
        case .conflicting:
            throw .conflict("a grant \(grant.source)/\(grant.externalId) with other terms exists; revoke it and give a new one")
        case .unknownAccount:
            throw .notFound("account \(grant.accountId)")
        }
    }

    /// The revoked grant; `notFound` when the account has no such grant.
    package func revoke(_ grantId: String, ofAccount accountId: String, by actor: String?) throws(GatewayError) -> Grant {
        guard let revoked = try stored({ () throws(StoreError) in
            try store.revokeGrant(grantId, ofAccount: accountId, at: clock.now(), by: actor, events: events)
        }) else { throw .notFound("account \(accountId) has no grant \(grantId)") }
        accounts.invalidate([accountId])
        return revoked
    }
}
