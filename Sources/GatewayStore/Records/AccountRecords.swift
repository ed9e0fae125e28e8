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
    /// Its identities (E31), with the emails kept for support.
    public var identities: [Identity]
    /// Its sessions not ended (E34), idle ones included.
    public var sessions: [Session]
    public var devices: [Device]
    public var transactions: [Transaction]
    public var renewalInfos: [RenewalInfo]
    /// Grants of every source (print claims and redeemed codes among them), revoked ones too.
    public var grants: [Grant]
    /// The institutions whose grant was given to the account, each with when and from where.
    public var institutions: [(given: InstitutionAccount, institution: Institution?)]
    public var history: [HistoryEvent]
    /// Its download records (reports.md E36), by issue.
    public var downloads: [DownloadRecord]

    public init(account: Account, identities: [Identity], sessions: [Session], devices: [Device], transactions: [Transaction],
                renewalInfos: [RenewalInfo], grants: [Grant], institutions: [(given: InstitutionAccount, institution: Institution?)],
                history: [HistoryEvent], downloads: [DownloadRecord]) {
        self.account = account; self.identities = identities; self.sessions = sessions; self.devices = devices
        self.transactions = transactions; self.renewalInfos = renewalInfos
        self.grants = grants; self.institutions = institutions; self.history = history; self.downloads = downloads
    }

    public static func == (a: AccountRecords, b: AccountRecords) -> Bool {
        a.account == b.account && a.identities == b.identities && a.sessions == b.sessions && a.devices == b.devices && a.transactions == b.transactions && a.renewalInfos == b.renewalInfos
            && a.grants == b.grants && a.history == b.history && a.downloads == b.downloads
            && a.institutions.map(\.given) == b.institutions.map(\.given)
            && a.institutions.map(\.institution) == b.institutions.map(\.institution)
    }
}
