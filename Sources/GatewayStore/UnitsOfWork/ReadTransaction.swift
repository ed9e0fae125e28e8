import Entitle
import IssueCatalog
import Wire

/// Row access inside a read unit of work. Typed reads only: no query language crosses this line.
/// Both backends answer with the same SQL, written once (`SQLReading`, the `…Rows` files).
public protocol ReadTransaction {
    // MARK: Catalog

    /// The whole catalog, every issue in every state (retracted and scheduled included).
    func catalog() throws(StoreError) -> Catalog
    /// Grows with every committed catalog change; 0 for an empty store.
    func catalogRevision() throws(StoreError) -> Int64
    func publicationExists(_ id: String) throws(StoreError) -> Bool
    func productExists(_ id: String) throws(StoreError) -> Bool
    /// The id of the catalog product a store sells as `ref`, if any.
    func productId(of ref: StoreProductRef) throws(StoreError) -> String?
    /// One issue with its assets.
    func issue(_ ref: IssueRef) throws(StoreError) -> Issue?

    // MARK: Accounts and keys

    func account(id: String) throws(StoreError) -> Account?
    func account(tokenHash: String) throws(StoreError) -> Account?
    func account(appAccountToken: String) throws(StoreError) -> Account?
    func apiKey(secretHash: String) throws(StoreError) -> APIKey?
    /// Every key, by key id.
    func apiKeys() throws(StoreError) -> [APIKey]
    /// E32: the account an id reaches now, itself or the end of its chain of merges.
    func reachedAccount(id accountId: String) throws(StoreError) -> Account?

    // MARK: Sessions, identities (E31–E34)

    func session(tokenHash: String) throws(StoreError) -> Session?
    func session(id: String) throws(StoreError) -> Session?
    /// The account's sessions neither ended nor unused since before `idleCutoff`, oldest first.
    func liveSessions(ofAccount accountId: String, idleCutoff: Instant) throws(StoreError) -> [Session]
    func identity(_ key: IdentityKey) throws(StoreError) -> Identity?
    /// The account's identities, by provider.
    func identities(ofAccount accountId: String) throws(StoreError) -> [Identity]
    /// Identities whose kept email is `email`, compared without case.
    func identities(email: String) throws(StoreError) -> [Identity]
    /// E33: the account of a link code neither used nor expired at `instant`.
    func liveLinkCode(hash: String, at instant: Instant) throws(StoreError) -> String?

    // MARK: App Store facts

    /// Every transaction of every subscription and purchase the account owns (E4), ordered by
    /// environment, original transaction, purchase date and transaction id.
    func transactions(ofAccount accountId: String) throws(StoreError) -> [Transaction]
    /// Renewal infos of the subscriptions the account owns, ordered by subscription.
    func renewalInfos(ofAccount accountId: String) throws(StoreError) -> [RenewalInfo]
    /// The account's facts version: grows whenever its facts change; 0 for an unknown account.
    func factsVersion(ofAccount accountId: String) throws(StoreError) -> Int64
    /// The account's transactions, renewal infos and grants, in the orders above, with the facts
    /// version they make, from one statement (a consistent snapshot by itself).
    func versionedFacts(ofAccount accountId: String) throws(StoreError) -> VersionedFacts
    func transaction(_ key: TransactionKey) throws(StoreError) -> Transaction?
    /// E1's merge read and the save's read in one: the stored subscription holding the
    /// transaction `key` names or, when none holds it, `subscription` (where it would be saved),
    /// with all its transactions; nil when that subscription has none stored.
    func subscription(holding key: TransactionKey, else subscription: SubscriptionKey)
        throws(StoreError) -> (key: SubscriptionKey, transactions: [Transaction])?
    /// Every transaction of one subscription or single purchase, whoever owns it.
    func transactions(of subscription: SubscriptionKey) throws(StoreError) -> [Transaction]
    func renewalInfo(_ subscription: SubscriptionKey) throws(StoreError) -> RenewalInfo?
    /// The subscriptions and purchases a store's customer bought (`IngestBatch.customers`).
    func subscriptions(ofCustomer customerId: String, store: Store, environment: StoreEnvironment) throws(StoreError) -> [SubscriptionKey]
    /// The stored lines of one Stripe invoice (transaction ids `invoiceId/lineId`, E23).
    func transactions(stripeInvoice invoiceId: String, environment: StoreEnvironment) throws(StoreError) -> [Transaction]

    // MARK: Grants (E21)

    /// The account's grants, revoked ones included, by start then id.
    func grants(ofAccount accountId: String) throws(StoreError) -> [Grant]
    func grant(id: String) throws(StoreError) -> Grant?
    func grant(source: String, externalId: String) throws(StoreError) -> Grant?

    // MARK: Print subscribers (E29)

    func subscriber(publicationId: String, customerNumber: String) throws(StoreError) -> PrintSubscriber?
    /// Up to `limit` of the publication's subscribers no list `listId` named that have not ended by `instant`.
    func subscribers(of publicationId: String, notInList listId: String, runningAt instant: Instant, limit: Int)
        throws(StoreError) -> [PrintSubscriber]
    /// The lists received, newest first.
    func subscriberImports(limit: Int) throws(StoreError) -> [SubscriberImport]

    // MARK: Institutions (E30)

    /// Every institution, the first created first.
    func institutions() throws(StoreError) -> [Institution]
    func institution(id: String) throws(StoreError) -> Institution?
    /// Whether (and when, from where) the institution's grant was given to the account.
    func institutionAccount(accountId: String, institutionId: String) throws(StoreError) -> InstitutionAccount?
    /// The accounts the institution's grant was given to, the first given first.
    func institutionAccounts(ofInstitution institutionId: String) throws(StoreError) -> [InstitutionAccount]

    // MARK: Access codes (E22)

    func codeBatch(id: String) throws(StoreError) -> CodeBatch?
    /// A batch's codes, by hash.
    func codes(ofBatch batchId: String) throws(StoreError) -> [AccessCode]
    func code(hash: String) throws(StoreError) -> AccessCode?
    /// Who owns a subscription or single purchase, if anyone (E4).
    func owner(of subscription: SubscriptionKey) throws(StoreError) -> String?

    // MARK: Receipts and polling

    /// The latest receipt a subscription points to, with its owner.
    func latestReceipt(for subscription: SubscriptionKey) throws(StoreError) -> StoredReceipt?
    /// The digest of the receipt a subscription points to, without its content.
    func latestReceiptDigest(for subscription: SubscriptionKey) throws(StoreError) -> String?
    /// Stored receipts by digest after `digest` (nil: from the first), at most `limit`.
    func storedReceipts(after digest: String?, limit: Int) throws(StoreError) -> [ReceiptContent]
    /// Subscriptions whose latest `expiresDate` lies in `[notBefore, before)` or whose renewal info
    /// says billing retry or a grace period lasting until `notBefore` or later, oldest expiry
    /// first, at most `limit`; for the App Store status poller. `store`: that store's only (nil: every
    /// store's).
    func subscriptionsToPoll(expiringBefore before: Instant, notBefore: Instant, limit: Int, store: Store?)
        throws(StoreError) -> [PollTarget]

    // MARK: History

    /// The account's history events after `sequence` (nil: from its first), in order of arrival,
    /// at most `limit`.
    func history(ofAccount accountId: String, after sequence: Int64?, limit: Int) throws(StoreError) -> [HistoryEvent]

    // MARK: App Store Server API

    /// Whether the subscription's whole transaction history was fetched from the Server API.
    func isHistoryFetched(_ subscription: SubscriptionKey) throws(StoreError) -> Bool
    /// The instant recorded under `name` by `setServiceMark` (a background service's last success).
    func serviceMark(_ name: String) throws(StoreError) -> Instant?

    // MARK: Google Play acknowledgements (E28)

    /// Acknowledgements owed whose next attempt is due by `instant`, soonest first, at most `limit`.
    func pendingAcknowledgements(dueBy instant: Instant, limit: Int) throws(StoreError) -> [PendingAcknowledgement]
    /// Acknowledgements owed since before `instant`.
    func unacknowledgedCount(seenBefore instant: Instant) throws(StoreError) -> Int

    // MARK: Google Play subscription snapshots (E25)

    /// The newest `limit` snapshots kept of a token, in the order they were kept.
    func playSnapshots(packageName: String, purchaseToken: String, limit: Int) throws(StoreError) -> [PlaySnapshotRecord]
    /// The tokens a token's kept snapshots name as its `linkedPurchaseToken` (in any package), in
    /// order: the token it replaced, one step back along its chain.
    func linkedPurchaseTokens(of purchaseToken: String) throws(StoreError) -> [String]

    // MARK: Institutions given (E30, E35)

    /// The institutions whose grant was given to the account, the first given first.
    func institutionAccounts(ofAccount accountId: String) throws(StoreError) -> [InstitutionAccount]

    // MARK: Sign-in nonces (E31)

    /// Whether the nonce with this hash was issued, is unexpired at `now` and unused.
    func signInNonceIsLive(hash: String, now: Instant) throws(StoreError) -> Bool

    // MARK: Devices (push)

    /// The account's APNs devices, by token.
    func devices(ofAccount accountId: String) throws(StoreError) -> [Device]
    func device(_ apnsToken: String) throws(StoreError) -> Device?

    // MARK: Webhook outbox (push)

    /// The oldest events not yet delivered nor dead-lettered (lowest `seq` first), whoever holds
    /// their leases.
    func outboxEvents(limit: Int) throws(StoreError) -> [OutboxEvent]
    /// How many events wait (dead-lettered ones not counted).
    func outboxLength() throws(StoreError) -> Int
    /// The oldest event heading its account's lane that is due and leased to nobody but `owner`.
    func outboxClaimable(owner: String, now: Instant) throws(StoreError) -> OutboxEvent?
    /// The soonest waiting event's next attempt after `now`.
    func outboxNextAttempt(after now: Instant) throws(StoreError) -> Instant?
    /// Dead-lettered events, oldest first.
    func deadLetters(limit: Int) throws(StoreError) -> [OutboxEvent]
    func outboxEvent(seq: Int64) throws(StoreError) -> OutboxEvent?

    // MARK: Publication events and push jobs (push)

    /// When publication events were first recorded (issues published before then are never
    /// announced); nil before the first time.
    func publicationEventsBaseline() throws(StoreError) -> Instant?
    /// Issues published by `now`, not retracted, never announced; oldest first, at most `limit`.
    func unannouncedIssues(publishedBy now: Instant, limit: Int) throws(StoreError) -> [IssueRef]
    /// The earliest `publishedAt` after `now` of an issue not retracted and never announced.
    func nextUnannouncedPublication(after now: Instant) throws(StoreError) -> Instant?
    /// True when the issue's publication was announced (or skipped at the baseline).
    func isAnnounced(_ ref: IssueRef) throws(StoreError) -> Bool
    /// Unfinished push jobs, oldest first.
    func openPushJobs(limit: Int) throws(StoreError) -> [PushJob]
    /// Accounts with at least one device that `audience` names, by account id after `after`, at most `limit`.
    func pushCandidates(_ audience: PushAudience, after: String?, limit: Int) throws(StoreError) -> [String]

    // MARK: Circulation (E36)

    /// The evidence that may entitle the issue of `window` in `publicationId`, with its account.
    func circulationEvidence(publicationId: String, window: CirculationWindow) throws(StoreError)
        -> [(accountId: String, item: CirculationEvidence)]
    func circulationEvidence(ofAccount accountId: String) throws(StoreError) -> [CirculationEvidence]
    /// What the stored evidence was derived under (`CirculationUpkeep.fingerprint`); nil before the first rebuild.
    func circulationFingerprint() throws(StoreError) -> String?
    /// Account ids after `after` (nil: from the first), in id order, at most `limit`.
    func accountIds(after: String?, limit: Int) throws(StoreError) -> [String]
    /// Every reader's download record of one issue.
    func downloadRecords(of issue: IssueRef) throws(StoreError) -> [DownloadRecord]
    /// One reader's download records, by issue.
    func downloadRecords(of reader: DownloadReader) throws(StoreError) -> [DownloadRecord]
    // MARK: Subscribers over time (E37)
    /// Gives `tally` the stored intervals of every subscription with one of `products`, each
    /// subscription once with all its rows.
    func tallySubscriberIntervals(products: [StoreProductRef], into tally: inout SubscriberSeries.Tally) throws(StoreError)
    /// What `SubscriptionIntervals` computes from each account's facts with the stored catalog's
    /// products (accounts without transactions left out); writes nothing.
    func subscriberIntervals(of accounts: [(accountId: String, facts: AccountFacts)]) throws(StoreError) -> [DerivedSubscriberIntervals]
    /// Up to `limit` accounts owning a subscription or purchase, by id, after `accountId`.
    func owningAccounts(after accountId: String, limit: Int) throws(StoreError) -> [String]
    /// Subscriptions and purchases with stored facts that no account owns.
    func ownerlessSubscriptions() throws(StoreError) -> [SubscriptionKey]
    /// Up to `limit` accounts whose reports' rows are due (decision 96), by id.
    func reportRowsDue(limit: Int) throws(StoreError) -> [String]
    /// Up to `limit` accounts whose reports' rows are due, by id after `accountId`, their rows
    /// computed by `upkeep` on this snapshot (decision 130); nil when none is due.
    func prepareDueReportRows(after accountId: String, limit: Int, upkeep: any FactsUpkeeping)
        throws(StoreError) -> PreparedReportRows?
}
