/// Limits of the API layer, as named configuration (the HTTP server's own limits live in
/// `HTTPServerConfiguration`).
package struct APILimits: Sendable {
    /// The longest `receiptData` taken: a receipt with years of renewals runs to hundreds of KiB
    /// in base64. Longer is a 400 `bad_request` (http-api.md, receipt errors).
    package var receiptDataBytes = 4 << 20
    /// Body limit of `POST /v1/accounts/{id}/receipts`, above `receiptDataBytes` so that a long
    /// receipt is answered as the receipt errors say; a body past this is a 413 from the server.
    package var receiptBodyBytes = 6 << 20
    /// The most signed transactions one receipts request may carry.
    package var signedTransactionsPerRequest = 200
    /// Body limit of `POST /v1/appstore/notifications` (V1 carries up to 100 transactions).
    package var notificationBodyBytes = 2 << 20
    /// `POST /v1/accounts/{id}/refresh` per account: each one calls Apple, whose
    /// rate limits are per app, so one reader may not spend them for everyone.
    package var refreshesPerMinute = 6
    package var refreshBurst = 3
    /// How long a refresh waits for its calls to Stripe and Google, each on its own pool, counted
    /// from its start (Apple's call runs meanwhile). The clients' deadlines (Stripe 10 s, Google
    /// 25 s by default) bound one HTTP call each, and a refresh makes one or more per subscription,
    /// so a slow but healthy store can outlast this: the reader then gets 503 `store_unavailable`
    /// with `Retry-After` while the call goes on and stores what it finds, and a retry joins that
    /// call (`RunningCalls`) instead of starting another refresh of the account.
    package var refreshStoreWait: Duration = .seconds(45)

    package static let standard = APILimits()
}
