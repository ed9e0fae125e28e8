import Entitle
import Wire

/// What an account held when it was deleted (readers.md E35), read in the unit of work that
/// deleted it: the subscriptions it owned, for the answer's `stillBilling`.
public struct DeletedAccount: Sendable, Equatable {
    public var transactions: [Transaction]
    public var renewalInfos: [RenewalInfo]
    /// The latest receipt text of each Google Play subscription (it names the app's package).
    public var playReceipts: [SubscriptionKey: String]

    public init(transactions: [Transaction], renewalInfos: [RenewalInfo], playReceipts: [SubscriptionKey: String]) {
        self.transactions = transactions; self.renewalInfos = renewalInfos; self.playReceipts = playReceipts
    }
}

/// Everything the gateway holds about one account (readers.md E35, export), read on one snapshot.
public struct AccountRecords: Sendable, Equatable {
    public var account: Account
    public var devices: [Device]
    public var transactions: [Transaction]
    public var renewalInfos: [RenewalInfo]
    /// Grants of every source (print claims and redeemed codes among them), revoked ones too.
    public var grants: [Grant]
    /// The institutions whose grant was given to the account, each with when and from where.
    public var institutions: [(given: InstitutionAccount, institution: Institution?)]
    public var history: [HistoryEvent]

    public init(account: Account, devices: [Device], transactions: [Transaction], renewalInfos: [RenewalInfo], grants: [Grant],
                institutions: [(given: InstitutionAccount, institution: Institution?)], history: [HistoryEvent]) {
        self.account = account; self.devices = devices; self.transactions = transactions; self.renewalInfos = renewalInfos
        self.grants = grants; self.institutions = institutions; self.history = history
    }

    public static func == (a: AccountRecords, b: AccountRecords) -> Bool {
        a.account == b.account && a.devices == b.devices && a.transactions == b.transactions && a.renewalInfos == b.renewalInfos
            && a.grants == b.grants && a.history == b.history
            && a.institutions.map(\.given) == b.institutions.map(\.given)
            && a.institutions.map(\.institution) == b.institutions.map(\.institution)
    }
}
