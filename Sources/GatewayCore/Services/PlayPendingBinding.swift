import Entitle
import GatewayStore

/// googleplay.md ("Decisions where Google is silent"): a pending purchase posted binds its token to
/// the posting account (E4; an `obfuscatedExternalAccountId` naming an account still wins), so
/// that when Google later answers it purchased (a notification, a refresh, a backfill) it entitles
/// that account without a second post. Nothing is entitled while it is pending: only the owner of
/// the token's subscription key is stored.
struct PlayPendingBinding: Sendable {
    /// The key the purchase's facts will have: the token (a one-time product's, or the root of a
    /// subscription's chain) in the purchase's environment.
    let key: SubscriptionKey
    /// The `obfuscatedExternalAccountId` Google answered (the app's `appAccountToken`), if any.
    let accountToken: String?

    init(token: String, isTest: Bool, accountToken: String?) {
        key = SubscriptionKey(store: .googlePlay, environment: isTest ? .sandbox : .production, originalTransactionId: token)
        self.accountToken = accountToken
    }

    /// `facts` with the token named as the poster's, or the account its account token names.
    func bind(_ facts: VerifiedFacts, poster: String, _ tx: any ReadTransaction) throws(StoreError) -> VerifiedFacts {
        var facts = facts
        var owner = poster
        // E32: the account a merged holder of the token was merged into.
        if let accountToken, let holder = try tx.account(appAccountToken: accountToken),
           let named = try tx.reachedAccount(id: holder.id) {
            owner = named.id
        }
        facts.namedOwners[key] = owner
        return facts
    }
}
