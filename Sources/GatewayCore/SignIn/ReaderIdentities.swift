import GatewayStore
import OpenIDConnect
import Wire

/// E32: an account's identities: another provider's added (`POST …/identities`), one removed
/// (`DELETE …/identities/{provider}`), and support's lookup of accounts by a kept email.
package struct ReaderIdentities: Sendable {
    private enum Addition {
        case added(Identity)
        case inUse
        case providerTaken
        case nonceRefused
    }

    private enum Removal {
        case removed(Identity)
        case none
        case last
    }

    private let store: any GatewayStore
    private let clock: any GatewayClock
    private let policy: SessionPolicy
    private let verifier: any IdentityVerifying

    package init(store: any GatewayStore, clock: any GatewayClock, policy: SessionPolicy, verifier: any IdentityVerifying) {
        self.store = store; self.clock = clock; self.policy = policy; self.verifier = verifier
    }

    /// E32: 409 `identity_in_use` when another account holds it, `conflict` when the account holds
    /// another identity of the provider; the nonce is used up whatever the outcome (E31 step 5).
    package func add(to accountId: String, provider: String, idToken: String, nonce: String,
                     clientAddress: String?) throws(GatewayError) -> Identity {
        guard verifier.isConfigured else {
            throw .notConfigured("no identity providers are configured (ISSUE_GATEWAY_IDENTITY_PROVIDERS)")
        }
        try verifier.admit(clientAddress: clientAddress, now: clock.now())
        let verified = try verifier.verify(provider: provider, idToken: idToken, nonce: nonce, clientAddress: clientAddress,
                                           now: clock.now())
        let key = IdentityKey(provider: verified.provider, subject: verified.subject)
        let now = clock.now()
        let outcome = try stored { () throws(StoreError) -> Addition in
            try store.write { tx throws(StoreError) -> Addition in
                guard try verifier.useNonce(nonce, in: tx, now: now) else { return .nonceRefused }
                if let held = try tx.identity(key), held.accountId != accountId { return .inUse }
                if try tx.identities(ofAccount: accountId).contains(where: { $0.key.provider == key.provider && $0.key != key }) {
                    return .providerTaken
                }
                let identity = Identity(key: key, accountId: accountId, email: verified.email,
                                        emailVerified: verified.emailVerified, isPrivateEmail: verified.isPrivateEmail,
                                        realUserStatus: verified.realUserStatus, createdAt: now)
                try tx.save(identity)
                return .added(identity)
            }
        }
        switch outcome {
        case .added(let identity): return identity
        case .inUse: throw .identityInUse
        case .providerTaken: throw .conflict("the account holds another identity of \(key.provider)")
        case .nonceRefused: throw .invalidIDToken(reason: IDTokenRefusal.nonce.rawValue)
        }
    }

    /// E32: 404 when the account holds none of the provider; 409 `last_identity` when it is the
    /// only one and live sessions were made with it. Sessions made with a removed identity stay.
    package func remove(provider: String, from accountId: String) throws(GatewayError) -> Identity {
        let cutoff = policy.idleCutoff(now: clock.now())
        let outcome = try stored { () throws(StoreError) -> Removal in
            try store.write { tx throws(StoreError) -> Removal in
                let identities = try tx.identities(ofAccount: accountId)
                guard let identity = identities.first(where: { $0.key.provider == provider }) else { return .none }
                if identities.count == 1,
                   try tx.liveSessions(ofAccount: accountId, idleCutoff: cutoff).contains(where: { $0.identity == identity.key }) {
                    return .last
                }
                _ = try tx.deleteIdentity(identity.key)
                return .removed(identity)
            }
        }
        switch outcome {
        case .removed(let identity): return identity
        case .none: throw .notFound("account \(accountId) holds no identity of \(provider)")
        case .last: throw .lastIdentity
        }
    }

    package func identities(of accountId: String) throws(GatewayError) -> [Identity] {
        try stored { () throws(StoreError) in try store.identities(ofAccount: accountId) }
    }

    /// readers.md, Decisions: accounts found by an identity's kept email (without case).
    package func lookup(email: String) throws(GatewayError) -> [Identity] {
        try stored { () throws(StoreError) in try store.read { tx throws(StoreError) in try tx.identities(email: email) } }
    }
}
