/// Limits of the API layer, as named configuration (the HTTP server's own limits live in
/// `HTTPServerConfiguration`).
struct APILimits: Sendable {
    /// Body limit of `POST /v1/accounts/{id}/receipts`: a receipt with years of renewals runs to
    /// hundreds of KiB in base64, above the server's default 1 MiB only in pathological cases.
    var receiptBodyBytes = 4 << 20
    /// The most signed transactions one receipts request may carry.
    var signedTransactionsPerRequest = 200
    /// Body limit of `POST /v1/appstore/notifications` (V1 carries up to 100 transactions).
    var notificationBodyBytes = 2 << 20
    /// Accounts whose facts stay in memory.
    var accountCacheEntries = 100_000
    /// Download tokens remembered as verified by the edge check (`TokenMemo`).
    var verifiedTokenEntries = 50_000
    /// Resolved bearer secrets kept in memory.
    var principalCacheEntries = 100_000

    static let standard = APILimits()
}
