import Entitle
import GatewayStore
import Wire

/// E29's claims (http-api.md `POST /v1/accounts/{accountId}/claims`): a reader gives a customer
/// number and its verification value and the account gets the subscriber's grant. A wrong value,
/// an unknown number and an unknown publication are the same answer, compared in constant time,
/// and at most `FailureWindow.limit` failures per account and per client address are answered in
/// its window before `rateLimited`.
package struct PrintClaims: Sendable {
    /// E29: 10 failed claims per account and per client address in 15 minutes.
    package static let failureLimit = 10
    package static let failureWindowSeconds = 15 * 60

    private let store: any GatewayStore
    private let accounts: AccountFactsCache
    private let hasher: VerificationHasher
    private let identifiers: Identifiers
    private let ownership: OwnershipPolicy
    private let events: EventPolicy
    package let failures: FailureWindow<String>

    package init(store: any GatewayStore, accounts: AccountFactsCache, hasher: VerificationHasher, identifiers: Identifiers,
                 ownership: OwnershipPolicy, events: EventPolicy,
                 failures: FailureWindow<String> = FailureWindow(limit: failureLimit, windowSeconds: failureWindowSeconds)) {
        self.store = store; self.accounts = accounts; self.hasher = hasher; self.identifiers = identifiers
        self.ownership = ownership; self.events = events; self.failures = failures
    }

    /// Claims for `accountId`; `limitKeys` are the keys whose failures are counted (the account,
    /// the client address). Throws `rateLimited` before trying when any key is at its limit,
    /// `subscriberNotFound` for a failure, `ownedByOtherAccount` when E4 under `keep` leaves the
    /// subscriber with another account.
    package func claim(publicationId: String, customerNumber: String, verification: String, for accountId: String,
                       limitKeys: [String], at now: Instant) throws(GatewayError) {
        for key in limitKeys {
            if let seconds = failures.retryAfter(key, now: now) { throw .rateLimited(retryAfterSeconds: seconds) }
        }
        let grantId = "grant-" + (try identifiers.newIdentifier())
        let outcome = try stored { () throws(StoreError) in
            try store.claimSubscriber(publicationId: publicationId, customerNumber: customerNumber, for: accountId,
                                      policy: ownership, grantId: grantId, at: now, events: events) { storedHex in
                hasher.matches(publicationId: publicationId, customerNumber: customerNumber, verification: verification,
                               storedHex: storedHex)
            }
        }
        switch outcome {
        case .notFound:
            for key in limitKeys { failures.record(key, now: now) }
            throw .subscriberNotFound
        case .claimed(_, let previous):
            accounts.invalidate([accountId] + (previous.map { [$0] } ?? []))
        case .unchanged:
            break
        case .ownedByOtherAccount:
            throw .ownedByOtherAccount
        case .unknownAccount:
            throw .notFound("account \(accountId)")
        }
    }
}
