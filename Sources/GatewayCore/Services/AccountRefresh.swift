import GatewayStore

/// `POST /v1/accounts/{id}/refresh` (http-api.md: every store with credentials and facts for the
/// account): Apple on the caller's thread (the App Store pool), Stripe and Google each on its own
/// pool, at once, waited for within one deadline (the decision on refresh pools). Which stores
/// are asked is decided here, on the caller's thread, from one read of the account's
/// subscriptions: a store without credentials, or without a subscription of the account, gets no
/// job, so a pool full of other work (Stripe's webhooks) cannot fail a refresh that needs nothing
/// from it. A refresh of an account whose Stripe or Google call is still running joins that call
/// (`RunningCalls`) rather than queueing the same work again.
package final class AccountRefresh: Sendable {
    private let store: any GatewayStore
    private let appStore: AppStoreIngestion
    private let stripe: StripeIngestion
    private let googlePlay: GooglePlayIngestion?
    private let stripeWork: WorkPool
    private let googlePlayWork: WorkPool
    private let storeWait: Duration
    private let running = RunningCalls()

    /// `storeWait`: how long the caller waits for the Stripe and Google calls, from its start.
    package init(store: any GatewayStore, appStore: AppStoreIngestion, stripe: StripeIngestion,
                 googlePlay: GooglePlayIngestion?, stripeWork: WorkPool, googlePlayWork: WorkPool, storeWait: Duration) {
        self.store = store; self.appStore = appStore; self.stripe = stripe; self.googlePlay = googlePlay
        self.stripeWork = stripeWork; self.googlePlayWork = googlePlayWork; self.storeWait = storeWait
    }

    /// Apple's error first when Apple fails (it is waited for first); a Stripe or Google call not
    /// ended by the deadline, or whose pool is full, is `storeUnavailable`.
    package func refresh(_ accountId: String) throws(GatewayError) {
        let deadline = ContinuousClock.now + storeWait
        let subscriptions = try stored { () throws(StoreError) in try store.subscriptions(ofAccount: accountId) }
        let stripeKeys = stripe.refreshable(subscriptions)
        let stripeCall = stripeKeys.isEmpty ? nil : running.join("stripe " + accountId, "Stripe", on: stripeWork) {
            [stripe] () throws(GatewayError) in try stripe.refresh(stripeKeys)
        }
        var googleCall: PooledCall?
        if let googlePlay {
            let googleKeys = googlePlay.refreshable(subscriptions)
            if !googleKeys.isEmpty {
                googleCall = running.join("googlePlay " + accountId, "Google Play", on: googlePlayWork) {
                    () throws(GatewayError) in try googlePlay.refresh(googleKeys)
                }
            }
        }
        try appStore.refresh(subscriptions)
        try stripeCall?.wait(until: deadline)
        try googleCall?.wait(until: deadline)
    }
}
