/// The stores' intake: facts from the App Store, Google Play and Stripe, the passes that fetch
/// them in the background, and a reader's refresh across the stores.
package struct IntakeServices: Sendable {
    /// Where every store's facts are stored.
    package let facts: FactIntake
    package let appStore: AppStoreIngestion
    /// Fetches a posted signed transaction's statuses from Apple.
    package let postedStatuses: PostedTransactionStatuses
    /// Replays Apple's notification history; nil without Server API credentials.
    package let backfill: NotificationBackfill?
    /// Stripe's webhook events (and its API, when a key is configured).
    package let stripe: StripeIngestion
    /// Google Play; nil unless `ISSUE_GATEWAY_GOOGLE_PACKAGES` and a service account are configured.
    package let googlePlay: GooglePlayIngestion?
    /// E28's retries; nil without Google Play.
    package let acknowledger: GooglePlayAcknowledger?
    /// Pub/Sub pull; nil unless a subscription to pull is configured.
    package let puller: GooglePlayPuller?
    /// E24's pass over voided purchases; nil without Google Play.
    package let voidedPass: GooglePlayVoidedPass?
    /// Where calls to Stripe and to Google made on behalf of other work run (a reader's refresh
    /// runs on the App Store pool and asks them on theirs).
    let stripeWork: WorkPool
    let googlePlayWork: WorkPool

    /// A reader's refresh across the stores; `storeWait` bounds the wait for Stripe and Google.
    package func refresh(storeWait: Duration) -> AccountRefresh {
        AccountRefresh(store: facts.store, appStore: appStore, stripe: stripe, googlePlay: googlePlay,
                       stripeWork: stripeWork, googlePlayWork: googlePlayWork, storeWait: storeWait)
    }
}
