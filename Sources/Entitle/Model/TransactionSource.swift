/// Where a fact came from. Every path proves it came from its store (E2); the source is kept for
/// support staff and for deciding which of two descriptions of one purchase is newer (E1). The
/// raw values are what rows hold (and have held since the first schema), so they stay.
public enum TransactionSource: String, Hashable, Sendable, CaseIterable {
    /// A receipt the store verified for us.
    case receipt = "verifyReceipt"
    /// A transaction or renewal info the store signed.
    case signedTransaction
    /// A server notification, in the store's first and second formats.
    case notificationV1, notificationV2
    /// The gateway's own periodic question to the store.
    case statusPoll
    /// Google Play's answer to the gateway's own call (E2, E23): on a reader's post, a refresh or a
    /// backfill; `rtdn` when a real-time developer notification made the gateway ask.
    case googlePlayApi, rtdn
    /// A Stripe event whose `Stripe-Signature` verified, and an answer of Stripe's API to the
    /// gateway's own authenticated call (E23).
    case stripeEvent, stripeApi
}
