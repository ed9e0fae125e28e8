import Entitle
import IssueCatalog

/// A verifyReceipt answer (or a V1 notification's `unified_receipt`), normalised.
public struct VerifyReceiptResponse: Hashable, Sendable {
    public var status: Int
    public var environment: StoreEnvironment?
    public var bundleId: String?
    public var latestReceipt: String?
    /// `latest_receipt_info` and `receipt.in_app`, descriptions of one purchase merged (E1).
    public var transactions: [Transaction]
    public var renewals: [RenewalInfo]

    public init(status: Int, environment: StoreEnvironment?, bundleId: String?,
                latestReceipt: String?, transactions: [Transaction], renewals: [RenewalInfo]) {
        self.status = status; self.environment = environment
        self.bundleId = bundleId; self.latestReceipt = latestReceipt
        self.transactions = transactions; self.renewals = renewals
    }

    /// 0 valid; 21006 valid but expired (iOS 6 style): both are ingested (appstore.md).
    public var isValid: Bool { status == 0 || status == 21006 }
}

/// The fields of a verifyReceipt answer that decide what the client does next (appstore.md).
public struct VerifyReceiptStatusFields: Hashable, Sendable {
    public var status: Int
    /// `is-retryable` / `is_retryable` (bool, number or string) as sent; false when absent. Which
    /// statuses are temporary anyway is the client's table (`VerifyReceiptStatus`).
    public var isRetryable: Bool
    public var environment: StoreEnvironment?

    public init(status: Int, isRetryable: Bool, environment: StoreEnvironment?) {
        self.status = status; self.isRetryable = isRetryable; self.environment = environment
    }
}
