import GatewayStore
import Wire

/// What Sign in with Apple's notifications do to the identity `(apple, sub)`: a revoked consent
/// removes it and ends the sessions made with it; an account deletion does the same and deletes
/// the account (E35) when nothing identifies it and no session remains; the email is dropped or
/// kept. An unknown `sub` changes nothing; the same notification twice changes nothing more.
package struct AppleIdentityEvents: Sendable {
    /// What the actions did, for the caller and the tests.
    package enum Outcome: Sendable, Equatable {
        /// No identity `(apple, sub)`.
        case unknownSubject
        /// An event type the gateway does not act on: taken, changing nothing.
        case ignored(type: String)
        case identityRemoved(accountId: String, endedSessions: [String])
        /// The identity was removed and the account, left without identity or session, deleted.
        case accountDeleted(accountId: String, endedSessions: [String])
        case emailChanged(accountId: String)
    }

    private let store: any GatewayStore
    private let clock: any GatewayClock
    private let authenticator: Authenticator
    private let policy: SessionPolicy
    /// E35's deletion of an account (one unit of work of its own, its webhook).
    private let deleteAccount: @Sendable (String) throws(GatewayError) -> Void

    package init(store: any GatewayStore, clock: any GatewayClock, authenticator: Authenticator, policy: SessionPolicy,
                 deleteAccount: @escaping @Sendable (String) throws(GatewayError) -> Void) {
        self.store = store; self.clock = clock; self.authenticator = authenticator; self.policy = policy
        self.deleteAccount = deleteAccount
    }

    package func take(_ event: AppleServerEvent) throws(GatewayError) -> Outcome {
        if case .other(let type, _) = event { return .ignored(type: type) }
        let key = IdentityKey(provider: AppleServerEvents.provider, subject: event.subject)
        let now = clock.now()
        let cutoff = policy.idleCutoff(now: now)
        let outcome = try stored { () throws(StoreError) -> (Outcome, deletionDue: Bool) in
            try store.write { tx throws(StoreError) -> (Outcome, deletionDue: Bool) in
                guard var identity = try tx.identity(key) else { return (.unknownSubject, false) }
                let deletes: Bool
                switch event {
                case .other: return (.unknownSubject, false)  // answered above, before any read
                case .emailDisabled, .emailEnabled:
                    if case .emailEnabled(_, let email) = event { identity.email = email ?? identity.email } else { identity.email = nil }
                    try tx.save(identity)
                    return (.emailChanged(accountId: identity.accountId), false)
                case .consentRevoked: deletes = false
                case .accountDeleted: deletes = true
                }
                _ = try tx.deleteIdentity(key)
                let ended = try tx.endSessions(madeWith: key, at: now)
                let identitiesLeft = try tx.identities(ofAccount: identity.accountId)
                let sessionsLeft = try tx.liveSessions(ofAccount: identity.accountId, idleCutoff: cutoff)
                let due = deletes && identitiesLeft.isEmpty && sessionsLeft.isEmpty
                return (.identityRemoved(accountId: identity.accountId, endedSessions: ended), due)
            }
        }
        if case .identityRemoved(let accountId, let ended) = outcome.0 {
            for id in ended { authenticator.forget(sessionId: id) }
            if outcome.deletionDue {
                try deleteAccount(accountId)
                return .accountDeleted(accountId: accountId, endedSessions: ended)
            }
        }
        return outcome.0
    }
}
