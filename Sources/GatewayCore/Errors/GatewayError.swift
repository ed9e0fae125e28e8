import GatewayStore

/// Why a use case did not do what it was asked, in the domain's terms. The core throws it and
/// never speaks HTTP: the API layer maps each case to a status, a code and header fields once
/// (GatewayHTTP's error answer), the way an error meets HTTP only at the edge. The sentence each
/// case carries is what a client may read; an error never changes stored state.
package enum GatewayError: Error, Sendable, Equatable {
    /// A value the use case cannot take (a field, a query, a body), the sentence naming it.
    case invalid(String)
    /// An institution's network entry that is not a network or overlaps another of its own.
    case invalidNetwork(entry: String, reason: String)
    /// More than a use case takes at once (signed transactions per request).
    case tooLarge(String)
    /// A subscriber list in a format the gateway does not read.
    case unsupportedFormat(String)
    /// No proof of who is asking, or a proof refused (secret, signature, shared secret, push token).
    case unauthorized(String = "a valid bearer secret is required")
    /// readers.md E31: an ID token (or a Sign in with Apple notification) refused; `reason` is the
    /// step it failed (`IDTokenRefusal`'s raw values).
    case invalidIDToken(reason: String)
    /// readers.md E31: the provider's keys could not be fetched and none is kept for the token's `kid`.
    case providerUnavailable(retryAfterSeconds: Int)
    /// The caller is known and may not do this.
    case forbidden(String = "this secret is not allowed here")
    /// E7: the account's entitlement does not cover the issue; `reason` is the first E-rule reason.
    case notEntitled(issueId: String, reason: String)
    /// E30: no institution covers the caller's address.
    case notInInstitution
    case notFound(String)
    /// A redeem code unknown, used, expired or withdrawn (E22).
    case codeNotFound
    /// No print subscriber with this customer number and verification value (E21).
    case subscriberNotFound
    /// The thing exists already, or the change contradicts what is stored.
    case conflict(String)
    /// E36: a scheduled issue has no circulation yet.
    case notPublished(String)
    /// E4 under the `keep` policy: the purchase is another account's (`IngestOutcome.refused`).
    case ownedByOtherAccount
    /// An `appAccountToken` names one account (E4's V2 rule binds purchases carrying it).
    case appAccountTokenInUse
    /// E32: the account in the path was merged into `mergedInto` (told to service and admin keys;
    /// others hear `notFound`).
    case accountMerged(mergedInto: String)
    /// E34: the account has as many live sessions as the device limit allows; `sessions` are
    /// they (`current`: the requester's own, if among them). Nothing changed.
    case deviceLimit(sessions: [Session], current: String?)
    /// E33: a link code unknown, used or expired.
    case linkCodeNotFound
    /// E32: the identity belongs to another account; nothing changed.
    case identityInUse
    /// E32: the account's only identity, with sessions made with it: sign-out or deletion is the way.
    case lastIdentity
    /// A use case that needs credentials the operator did not configure: no retry helps.
    case notConfigured(String)
    /// Apple verified the receipt or transaction and refused it; `appStoreStatus` is its status.
    case receiptRejected(String, appStoreStatus: Int? = nil)
    /// Apple refused the Server API request itself (`status` is its HTTP status).
    case appStoreRefused(status: Int, appStoreErrorCode: Int?)
    /// Apple cannot answer now; `retryAfterSeconds` is the wait it named, if any.
    case appStoreUnavailable(String, retryAfterSeconds: Int? = nil)
    /// Google Play or Stripe cannot answer now, or their pool is full; `retryAfterSeconds` is the
    /// wait the store named (its `Retry-After`), if any: it is passed on (http-api.md).
    case storeUnavailable(String, retryAfterSeconds: Int? = nil)
    /// Google Play does not know the purchase (`GooglePlayError.notFound`).
    case purchaseNotFound
    /// Google Play no longer keeps the purchase (`GooglePlayError.gone`).
    case purchaseExpired
    /// Too many tries from one client, or work already queued: ask again after the wait.
    case rateLimited(retryAfterSeconds: Int, message: String = "too many requests from this client; try again later")
    /// The database was held by other work: the same request may pass shortly.
    case storageBusy
    /// E29: another whole subscriber list of the publication is still being applied; this one may
    /// be sent again after `retryAfterSeconds`.
    case listInProgress(String, retryAfterSeconds: Int)
    /// The database could not be read or written; the details are in the log (`StoreLog`).
    case storageFailed
    /// The database cannot be reached at all (`/healthz`).
    case storageUnreachable
    /// Something the gateway itself needs failed (randomness, hashing): not the caller's doing.
    case failed(String)
}

extension GatewayError {
    /// Apple's outages and retry budgets are seconds long (the clients retry within a deadline
    /// of a few seconds before giving up): asking again sooner would find the same answer.
    package static let appStoreRetryAfterSeconds = 5
    /// Google Play and Stripe retry their own deliveries over minutes (Stripe's webhook retries,
    /// Pub/Sub's redelivery): one minute is the wait asked of them and of the operator.
    package static let storeRetryAfterSeconds = 60

    /// Store failures as the use cases state them; storage details stay in the log. (A missing
    /// or existing thing is an operation's outcome, which the use case states itself.)
    package init(_ error: StoreError) {
        switch error {
        case .busy: self = .storageBusy
        case .failed: self = .storageFailed
        }
    }

    /// True when the same request may pass if tried again later (an outside store or the
    /// database could not answer now); a refusal or a missing thing will not change by asking.
    package var isTransient: Bool {
        switch self {
        case .appStoreUnavailable, .storeUnavailable, .storageBusy, .listInProgress, .storageUnreachable, .providerUnavailable: true
        default: false
        }
    }

    /// True when Google Play no longer answers for the purchase (unknown or expired).
    package var isPurchaseGone: Bool { self == .purchaseNotFound || self == .purchaseExpired }

    /// The wait a caller is asked to keep before trying again, when the error names one.
    package var retryAfterSeconds: Int? {
        switch self {
        case .appStoreUnavailable(_, let seconds): seconds ?? Self.appStoreRetryAfterSeconds
        case .storeUnavailable(_, let seconds): seconds ?? Self.storeRetryAfterSeconds
        case .listInProgress(_, let seconds): seconds
        case .rateLimited(let seconds, _): seconds
        case .providerUnavailable(let seconds): seconds
        default: nil
        }
    }

    /// The sentence a client reads.
    package var message: String {
        switch self {
        case .invalid(let m), .tooLarge(let m), .unsupportedFormat(let m), .unauthorized(let m), .forbidden(let m),
             .notFound(let m), .conflict(let m), .notPublished(let m), .notConfigured(let m), .receiptRejected(let m, _),
             .appStoreUnavailable(let m, _), .storeUnavailable(let m, _), .listInProgress(let m, _), .rateLimited(_, let m),
             .failed(let m):
            m
        case .invalidNetwork(let entry, let reason): "\(entry): \(reason)"
        case .notEntitled(let issueId, _): "this account may not download \(issueId)"
        case .notInInstitution: "no institution covers this address"
        case .invalidIDToken(let reason): "the ID token was refused (\(reason))"
        case .providerUnavailable: "the identity provider's keys cannot be fetched now; try again later"
        case .codeNotFound: "no such code, or it was used, has expired or was withdrawn"
        case .subscriberNotFound: "no subscriber with this customer number and verification value in this publication"
        case .ownedByOtherAccount: "this purchase belongs to another account"
        case .accountMerged(let into): "this account was merged into \(into)"
        case .deviceLimit: "the account has as many devices signed in as it may; sign one out or replace it (replaceSessionId)"
        case .linkCodeNotFound: "no such link code, or it was used or has expired"
        case .identityInUse: "this identity belongs to another account"
        case .lastIdentity: "this is the account's only identity and sessions were made with it; sign out or delete the account instead"
        case .appAccountTokenInUse: "another account already holds this appAccountToken"
        case .appStoreRefused(let status, _): "the App Store refused the request (HTTP \(status))"
        case .purchaseNotFound: "Google Play does not know this purchase"
        case .purchaseExpired: "Google Play no longer keeps this purchase"
        case .storageBusy: "the gateway's database is busy; try again shortly"
        case .storageFailed: "the gateway could not read or write its database"
        case .storageUnreachable: "the gateway's database cannot be reached"
        }
    }
}

/// Runs a store call, turning its failure into the use case's error.
package func stored<T>(_ body: () throws(StoreError) -> T) throws(GatewayError) -> T {
    do { return try body() } catch { throw GatewayError(error) }
}
