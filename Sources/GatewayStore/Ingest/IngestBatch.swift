import Entitle
import Wire

/// Facts proved to come from Apple (E2), to be stored for one account.
public struct IngestBatch: Sendable {
    /// The account that brought the facts; nil for a server notification, whose facts go to the
    /// subscription's current owner (or the account an `appAccountToken` names), else stay unbound
    /// until an account brings them.
    public var accountId: String?
    public var transactions: [Transaction]
    public var renewalInfos: [RenewalInfo]
    /// The base64 receipt these facts came from, kept once and pointed to by every subscription
    /// it describes, for status polling.
    public var receiptData: String?
    public var at: Instant

    public init(accountId: String?, transactions: [Transaction], renewalInfos: [RenewalInfo] = [],
                receiptData: String? = nil, at: Instant) {
        self.accountId = accountId; self.transactions = transactions; self.renewalInfos = renewalInfos
        self.receiptData = receiptData; self.at = at
    }
}
