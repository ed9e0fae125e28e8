/// What one verifyReceipt status means for the client (appstore.md, the status table).
package enum VerifyReceiptStatus: Equatable {
    case valid
    case rejected
    case misconfigured
    case retryable
    case redirect(VerifyReceiptEndpoint)

    static let validStatuses: Set<Int> = [0, 21006]
    static let misconfiguredStatus = 21004
    static let sandboxReceiptStatus = 21007
    static let productionReceiptStatus = 21008
    static let retryableStatuses: Set<Int> = [21005, 21009]
    static let retryableRange = 21100...21199

    /// `isRetryable` can make any status the table does not pin down retryable; it never turns
    /// a valid answer, a redirect or a misconfiguration into a retry.
    package init(status: Int, isRetryable: Bool) {
        switch status {
        case _ where Self.validStatuses.contains(status): self = .valid
        case Self.misconfiguredStatus: self = .misconfigured
        case Self.sandboxReceiptStatus: self = .redirect(.sandbox)
        case Self.productionReceiptStatus: self = .redirect(.production)
        case _ where Self.retryableStatuses.contains(status) || Self.retryableRange.contains(status) || isRetryable:
            self = .retryable
        default: self = .rejected
        }
    }
}
