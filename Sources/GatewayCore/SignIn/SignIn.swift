import GatewayStore
import OpenIDConnect
import Wire

/// `POST /v1/sessions` (readers.md): a sign-in with a verified ID token (E31, E32) or a link code
/// (E33) makes a session (E34) on the account E32's table names, merging the bearer's anonymous
/// account into it where the table says so. Each is one unit of work: the nonce or code is used
/// up in it, and a refusal made in it (`device_limit`) is decided before anything is written.
package struct SignIn: Sendable {
    /// The session the requesting device used so far (its bearer, when that is a live session).
    package struct Bearer: Sendable, Equatable {
        package var accountId: String
        package var sessionId: String
        package init(accountId: String, sessionId: String) { self.accountId = accountId; self.sessionId = sessionId }
    }

    /// The answer: 201 `{"accountId", "sessionId", "sessionToken", "created", "mergedFrom"}`.
    package struct Result: Sendable, Equatable {
        package var accountId: String
        package var sessionId: String
        /// Shown this once; stored only as its hash.
        package var sessionToken: String
        /// True only when a new account was made (E32 rows 1 and 3).
        package var created: Bool
        package var mergedFrom: [String]
    }

    /// What a sign-in asks besides its proof: the device and the session it may replace.
    package struct Request: Sendable {
        package var device: SessionDevice
        package var replaceSessionId: String?
        package var bearer: Bearer?
        package var clientAddress: String?
        package init(device: SessionDevice, replaceSessionId: String? = nil, bearer: Bearer? = nil, clientAddress: String? = nil) {
            self.device = device; self.replaceSessionId = replaceSessionId; self.bearer = bearer; self.clientAddress = clientAddress
        }
    }

    private enum Outcome {
        case signedIn(Result, ended: [String], merged: [String])
        case atLimit([Session])
        /// The nonce or link code was not (or no longer) usable; nothing was written.
        case proofRefused
    }

    private let store: any GatewayStore
    private let identifiers: Identifiers
    private let clock: any GatewayClock
    private let authenticator: Authenticator
    private let accounts: AccountFactsCache
    private let policy: SessionPolicy
    private let verifier: any IdentityVerifying
    private let linkCodes: LinkCodes

    package init(store: any GatewayStore, identifiers: Identifiers, clock: any GatewayClock, authenticator: Authenticator,
                 accounts: AccountFactsCache, policy: SessionPolicy, verifier: any IdentityVerifying) {
        self.store = store; self.identifiers = identifiers; self.clock = clock; self.authenticator = authenticator
        self.accounts = accounts; self.policy = policy; self.verifier = verifier
        linkCodes = LinkCodes(store: store, identifiers: identifiers, clock: clock)
    }

    /// E31 then E32: `admit` first (429 while the address holds too many failures), the token
    /// verified, then one unit of work.
    package func withIDToken(provider: String, idToken: String, nonce: String, _ request: Request) throws(GatewayError) -> Result {
        guard verifier.isConfigured else {
            throw .notConfigured("no identity providers are configured (ISSUE_GATEWAY_IDENTITY_PROVIDERS)")
        }
        try verifier.admit(clientAddress: request.clientAddress, now: clock.now())
        let identity = try verifier.verify(provider: provider, idToken: idToken, nonce: nonce,
                                           clientAddress: request.clientAddress, now: clock.now())
        let key = IdentityKey(provider: identity.provider, subject: identity.subject)
        let outcome = try run(request, identity: identity) { tx throws(StoreError) in
            try tx.identity(key)?.accountId
        } proof: { tx, now throws(StoreError) in
            try verifier.useNonce(nonce, in: tx, now: now)
        }
        guard let result = outcome else {
            // E31 step 5: the nonce was used meanwhile (`invalid_id_token`, reason `nonce`).
            throw .invalidIDToken(reason: IDTokenRefusal.nonce.rawValue)
        }
        return result
    }

    /// E33: the code's account, as E32's table reads a holder (an anonymous bearer is merged into it).
    package func withLinkCode(_ code: String, _ request: Request) throws(GatewayError) -> Result {
        try verifier.admit(clientAddress: request.clientAddress, now: clock.now())
        let hash = try linkCodes.hash(code)
        let now = clock.now()
        let outcome = try run(request, identity: nil) { tx throws(StoreError) in
            try tx.liveLinkCode(hash: hash, at: now)
        } proof: { tx, now throws(StoreError) in
            try tx.useLinkCode(hash: hash, at: now)
        }
        guard let result = outcome else {
            verifier.recordLinkCodeFailure(clientAddress: request.clientAddress, now: clock.now())
            throw .linkCodeNotFound
        }
        return result
    }

    /// The unit of work: `holder` reads who the proof names (nil: nobody; for a link code, that
    /// is the code's failure), E32 decides, E34 places the session, `proof` uses the nonce or
    /// code up, then everything is written. Nil when the proof was refused.
    private func run(_ request: Request, identity: VerifiedIdentity?,
                     holder: (any WriteTransaction) throws(StoreError) -> String?,
                     proof: (any WriteTransaction, Instant) throws(StoreError) -> Bool) throws(GatewayError) -> Result? {
        let secret = try NewSessionSecret(identifiers)
        let newAccountId = "acct-" + (try identifiers.newIdentifier())
        let now = clock.now()
        let outcome = try stored { () throws(StoreError) -> Outcome in
            try store.write { tx throws(StoreError) -> Outcome in
                let holderId = try holder(tx)
                if identity == nil, holderId == nil { return .proofRefused }
                let bearer = try bearerAccount(request.bearer, tx, now: now)
                let route = SignInRoute.decide(holder: holderId, bearer: bearer)
                let targetId = route.existingTarget ?? newAccountId
                var live: [Session] = []
                if let id = route.existingTarget {
                    try tx.lockSessionPlaces(ofAccount: id)
                    live = try tx.liveSessions(ofAccount: id, idleCutoff: policy.idleCutoff(now: now))
                }
                let bearerSession = request.bearer.flatMap { $0.accountId == targetId ? $0.sessionId : nil }
                let placement = SessionPlacement.decide(live: live, device: request.device, replace: request.replaceSessionId,
                                                        bearerSession: bearerSession, policy: policy)
                guard case .placed(let ending) = placement else { return .atLimit(live) }
                guard try proof(tx, now) else { return .proofRefused }
                var ended: [String] = []
                var merged: [String] = []
                switch route {
                case .newAccount:
                    guard try tx.insert(Account(id: targetId, tokenHash: targetId, createdAt: now)) else { throw .failed }
                case .merge(let from, let into):
                    if let endedByMerge = try tx.merge(from, into: into, at: now) {
                        ended += endedByMerge
                        merged.append(from)
                    }
                case .attach, .session:
                    break
                }
                if let identity {
                    // E31: each sign-in replaces the kept email and its flags with the token's.
                    try tx.save(Identity(key: IdentityKey(provider: identity.provider, subject: identity.subject),
                                         accountId: targetId, email: identity.email, emailVerified: identity.emailVerified,
                                         isPrivateEmail: identity.isPrivateEmail, realUserStatus: identity.realUserStatus,
                                         createdAt: now))
                }
                for id in ending {
                    if try tx.endSession(id: id, at: now) { ended.append(id) }
                }
                let identityKey = identity.map { IdentityKey(provider: $0.provider, subject: $0.subject) }
                guard try tx.insert(secret.session(on: targetId, device: request.device, identity: identityKey, at: now)) else {
                    throw .failed
                }
                let result = Result(accountId: targetId, sessionId: secret.sessionId, sessionToken: secret.token,
                                    created: route == .newAccount, mergedFrom: merged)
                return .signedIn(result, ended: ended, merged: merged)
            }
        }
        switch outcome {
        case .signedIn(let result, let ended, let merged):
            for id in ended { authenticator.forget(sessionId: id) }
            if !merged.isEmpty { accounts.invalidate(merged + [result.accountId]) }
            return result
        case .atLimit(let sessions):
            throw .deviceLimit(sessions: sessions, current: request.bearer?.sessionId)
        case .proofRefused:
            return nil
        }
    }

    /// The bearer's account as E32 reads it: absent unless its session is live on an account
    /// not merged away.
    private func bearerAccount(_ bearer: Bearer?, _ tx: any WriteTransaction, now: Instant) throws(StoreError)
        -> SignInRoute.BearerAccount? {
        guard let bearer, let session = try tx.session(id: bearer.sessionId), session.accountId == bearer.accountId,
              session.isLive(idleCutoff: policy.idleCutoff(now: now)),
              let account = try tx.account(id: bearer.accountId), account.mergedInto == nil else { return nil }
        return SignInRoute.BearerAccount(id: account.id, isIdentified: !(try tx.identities(ofAccount: account.id)).isEmpty)
    }
}
