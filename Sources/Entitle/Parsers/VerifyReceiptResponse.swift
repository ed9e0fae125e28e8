import IssueCatalog

/// A verifyReceipt answer (or a V1 notification's `unified_receipt`), normalised.
public struct VerifyReceiptResponse: Hashable, Sendable {
    public var status: Int
    public var environment: AppStoreEnvironment?
    /// `is-retryable` or `is_retryable` (bool, number or string), or a status the App Store
    /// documents as temporary (21005, 21009, 21100–21199).
    public var isRetryable: Bool
    public var bundleId: String?
    public var latestReceipt: String?
    /// `latest_receipt_info` and `receipt.in_app`, descriptions of one purchase merged (E1).
    public var transactions: [Transaction]
    public var renewals: [RenewalInfo]

    public init(status: Int, environment: AppStoreEnvironment?, isRetryable: Bool, bundleId: String?,
                latestReceipt: String?, transactions: [Transaction], renewals: [RenewalInfo]) {
        self.status = status; self.environment = environment; self.isRetryable = isRetryable
        self.bundleId = bundleId; self.latestReceipt = latestReceipt
        self.transactions = transactions; self.renewals = renewals
    }

    /// 0 valid; 21006 valid but expired (iOS 6 style): both are ingested (appstore.md).
    public var isValid: Bool { status == 0 || status == 21006 }

    static func statusIsTemporary(_ status: Int) -> Bool {
        status == 21005 || status == 21009 || (21100...21199).contains(status)
    }
}

/// The fields of a verifyReceipt answer that decide what the client does next (appstore.md).
public struct VerifyReceiptStatusFields: Hashable, Sendable {
    public var status: Int
    /// `is-retryable` / `is_retryable` as sent; false when absent.
    public var isRetryable: Bool
    public var environment: AppStoreEnvironment?

    public init(status: Int, isRetryable: Bool, environment: AppStoreEnvironment?) {
        self.status = status; self.isRetryable = isRetryable; self.environment = environment
    }
}
