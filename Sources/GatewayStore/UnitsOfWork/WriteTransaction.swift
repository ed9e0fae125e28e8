import Entitle
import IssueCatalog
import Wire

/// Row access inside a write unit of work: plain inserts, replacements and deletions. What to
/// write (merging, ownership, revision bumps) is decided above, by the operations of this module.
/// A row that may exist already (two writers creating it at once) is inserted unless it does, the
/// insert telling which; any other row breaking a uniqueness rule is `.failed`.
public protocol WriteTransaction: ReadTransaction {
    // MARK: Catalog

    /// Deletes every publication, product, issue and asset.
    func deleteCatalog() throws(StoreError)
    /// Inserts or updates by id.
    func save(_ publication: Publication) throws(StoreError)
    /// Inserts or replaces by id.
    func save(_ product: Product) throws(StoreError)
    /// Inserts an issue with its assets; false (nothing written) if its id exists in its publication.
    func insert(_ issue: Issue) throws(StoreError) -> Bool
    /// Deletes an issue with its assets; false if there was none.
    @discardableResult
    func deleteIssue(_ ref: IssueRef) throws(StoreError) -> Bool
    func bumpCatalogRevision() throws(StoreError)

    // MARK: Accounts and keys

    /// False (nothing written) if its id or token hash is taken.
    func insert(_ account: Account) throws(StoreError) -> Bool
    /// False (nothing written) if its key id or secret hash is taken.
    func insert(_ key: APIKey) throws(StoreError) -> Bool
    /// False if there was no such key.
    func deleteAPIKey(keyId: String) throws(StoreError) -> Bool

    // MARK: Sessions, identities, link codes, merges (E31–E34)

    /// False (nothing written) if its id or token hash is taken.
    func insert(_ session: Session) throws(StoreError) -> Bool
    /// Ends a session not yet ended (other processes hear of it); false when there was none.
    func endSession(id: String, at instant: Instant) throws(StoreError) -> Bool
    /// Serializes the units of work that place sessions on one account (E34's limit).
    func lockSessionPlaces(ofAccount accountId: String) throws(StoreError)
    /// Moves each session's `lastUsedAt` as its touch says, when the session is not ended and
    /// was last used at the touch's `ifUnusedSince` or before; how many moved. One session a
    /// touch at most (each is written once).
    func touch(_ touches: [SessionTouch]) throws(StoreError) -> Int
    /// Ends the account's sessions not yet ended; their ids.
    func endSessions(ofAccount accountId: String, at instant: Instant) throws(StoreError) -> [String]
    /// Ends the sessions signed in with the identity not yet ended; their ids.
    func endSessions(madeWith key: IdentityKey, at instant: Instant) throws(StoreError) -> [String]
    /// Inserts an identity, or replaces the claims of the stored one (its account stays).
    func save(_ identity: Identity) throws(StoreError)
    /// False if there was no such identity.
    func deleteIdentity(_ key: IdentityKey) throws(StoreError) -> Bool
    /// False (nothing written) if its hash is taken.
    func insert(_ code: LinkCode) throws(StoreError) -> Bool
    /// Uses an unused, unexpired link code up; false when there is none.
    func useLinkCode(hash: String, at instant: Instant) throws(StoreError) -> Bool
    /// Ends the account's unused link codes.
    func endLinkCodes(ofAccount accountId: String, at instant: Instant) throws(StoreError)
    /// Moves the rows an account holds (`RecordRows.rowsMovedByMerge`) to another.
    func moveMergedRows(from: String, into: String) throws(StoreError)
    /// Marks an account merged into another; false when it was merged already.
    func setMerged(_ accountId: String, into: String, at instant: Instant) throws(StoreError) -> Bool

    // MARK: App Store facts

    /// Inserts or replaces by E1's identity (store, environment, transactionId).
    func save(_ transaction: Transaction) throws(StoreError)
    /// Each inserted or replacing by E1's identity, later ones replacing earlier ones; each
    /// subscription's facts written once.
    func save(_ transactions: [Transaction]) throws(StoreError)
    /// `save(_:)` for transactions merged with what their caller read (E1, `FactIngestor`): each
    /// `old` is the transaction `new` replaces as the unit of work stores it now (nil: none), so
    /// where each is stored is not read again; nor is a subscription in `read`, the transactions
    /// the unit of work read of it (`subscription(holding:else:)`) and has not changed since.
    func save(merged: [(old: Transaction?, new: Transaction)], read: [SubscriptionKey: [Transaction]]) throws(StoreError)
    /// Inserts or replaces by subscription.
    func save(_ renewalInfo: RenewalInfo) throws(StoreError)
    func setOwner(_ accountId: String, of subscription: SubscriptionKey, at instant: Instant) throws(StoreError)
    /// The store's customer behind a subscription or purchase (Stripe's `cus_…`).
    func setCustomer(_ customerId: String, of subscription: SubscriptionKey) throws(StoreError)
    /// Raises the account's facts version and marks its reports' rows due, in this unit of work;
    /// returns the version raised to (0 for no such account).
    @discardableResult
    func bumpFactsVersion(ofAccount accountId: String) throws(StoreError) -> Int64

    // MARK: Grants (E21)

    /// Inserts a new grant; false (nothing written) if its id or `(source, externalId)` is taken.
    func insert(_ grant: Grant) throws(StoreError) -> Bool
    /// Marks a grant revoked at `instant`, unless it already is.
    func setRevoked(grantId: String, at instant: Instant) throws(StoreError)

    // MARK: Print subscribers (E29)

    /// Inserts or replaces by (publication, customer number).
    func save(_ subscriber: PrintSubscriber) throws(StoreError)
    /// Marks a row as named by list `listId`, changing nothing else.
    func markListed(publicationId: String, customerNumber: String, listId: String) throws(StoreError)
    /// Inserts or replaces by list id.
    func save(_ list: SubscriberImport) throws(StoreError)
    /// Changes a grant's account, interval and revocation in place (E29: a claimed grant follows
    /// its subscriber and serves one account at a time).
    func update(_ grant: Grant) throws(StoreError)
    /// E29: takes, or renews, the lock under which one list of `publicationId` at a time is
    /// applied, for list `listId`, until `until`; false when another list holds it beyond `now`.
    func holdSubscriberListLock(publicationId: String, listId: String, now: Instant, until: Instant) throws(StoreError) -> Bool
    /// Lets the lock go if list `listId` holds it.
    func releaseSubscriberListLock(publicationId: String, listId: String) throws(StoreError)

    // MARK: Institutions (E30)

    /// Inserts or replaces by id.
    func save(_ institution: Institution) throws(StoreError)
    /// False when there was no such institution.
    func deleteInstitution(id: String) throws(StoreError) -> Bool
    /// Inserts the (account, institution) pair unless it is there; true when this inserted it.
    func insert(_ record: InstitutionAccount) throws(StoreError) -> Bool
    func deleteInstitutionAccounts(ofInstitution institutionId: String) throws(StoreError)

    // MARK: Access codes (E22)

    func insert(_ batch: CodeBatch, codeHashes: [String]) throws(StoreError)
    func setRevoked(batchId: String, at instant: Instant) throws(StoreError)
    /// Marks an unredeemed code redeemed; false when it already was (single use, also across
    /// processes: the row changes at most once).
    func markRedeemed(codeHash: String, by accountId: String, at instant: Instant) throws(StoreError) -> Bool

    // MARK: Receipts and notifications

    /// Stores a receipt's content under its digest, once (a second save of one digest does nothing).
    func save(_ receipt: ReceiptContent) throws(StoreError)
    /// Points a subscription at the receipt with `digest` (already saved).
    func setLatestReceipt(_ digest: String, for subscription: SubscriptionKey, at instant: Instant) throws(StoreError)
    /// Deletes the receipt with `digest` if no subscription points to it any more.
    func deleteReceiptIfUnreferenced(_ digest: String) throws(StoreError)
    /// Records a notification UUID; false when it was recorded already.
    func insertProcessedNotification(_ uuid: String, at instant: Instant) throws(StoreError) -> Bool

    // MARK: History

    /// Appends one event to its account's history; the store gives it the next `sequence`.
    func append(_ event: HistoryEvent) throws(StoreError)
    /// Appends `events` in order, in one statement where the backend allows.
    func append(contentsOf events: [HistoryEvent]) throws(StoreError)

    // MARK: App Store Server API

    /// Records that the subscription's whole history was fetched (idempotent).
    func markHistoryFetched(_ subscription: SubscriptionKey, at instant: Instant) throws(StoreError)
    func setServiceMark(_ name: String, at instant: Instant) throws(StoreError)

    // MARK: Google Play acknowledgements (E28)

    func insertPendingAcknowledgement(_ pending: PendingAcknowledgement) throws(StoreError)
    func rescheduleAcknowledgement(_ pending: PendingAcknowledgement) throws(StoreError)
    func deletePendingAcknowledgement(packageName: String, purchaseToken: String) throws(StoreError)

    // MARK: Google Play subscription snapshots (E25)

    /// Keeps a snapshot unless the token's newest kept one says the same; true when kept.
    @discardableResult
    func recordPlaySnapshot(_ snapshot: PlaySnapshotRecord) throws(StoreError) -> Bool

    // MARK: Deletion (E35)

    /// What identifies the reader apart from history and grants: its push devices, its bearer
    /// secret (replaced by a hash no secret has) and its `appAccountToken` (freed for another).
    func eraseReaderIdentity(ofAccount accountId: String) throws(StoreError)
    /// The account owns nothing any more: its subscriptions and purchases stay, owned by nobody.
    func releaseOwnership(ofAccount accountId: String) throws(StoreError)
    /// Every grant of the account not revoked yet ends at `instant`; their notes are erased.
    func endGrants(ofAccount accountId: String, at instant: Instant) throws(StoreError)
    func deleteInstitutionAccounts(ofAccount accountId: String) throws(StoreError)
    /// Replaces one history event's details (free text and addresses erased).
    func replaceHistoryDetails(sequence: Int64, details: JSONObject) throws(StoreError)
    /// The account is found by no lookup from now on.
    func markAccountDeleted(_ accountId: String, at instant: Instant) throws(StoreError)

    // MARK: Sign-in nonces (E31)

    /// Records an issued nonce by its hash, and deletes those that expired by `now`.
    func insertSignInNonce(hash: String, expiresAt: Instant, now: Instant) throws(StoreError)
    /// Marks the nonce used at `now`; false (nothing written) unless it was issued, unexpired and unused.
    func useSignInNonce(hash: String, now: Instant) throws(StoreError) -> Bool

    // MARK: Devices (push)

    /// Inserts or replaces by token (a token held by another account moves to this one).
    func save(_ device: Device) throws(StoreError)
    /// Deletes a token, of `accountId` only when given; false when there was none.
    @discardableResult
    func deleteDevice(_ apnsToken: String, ofAccount accountId: String?) throws(StoreError) -> Bool

    // MARK: Webhook outbox (push)

    /// Appends an event (the store assigns `seq`); an `eventId` already waiting is left as it is.
    func insert(_ event: OutboxEvent) throws(StoreError)
    /// Writes an event's attempts, next attempt and lease.
    func updateOutboxEvent(_ event: OutboxEvent) throws(StoreError)
    func deleteOutboxEvent(seq: Int64) throws(StoreError)

    // MARK: Publication events and push jobs (push)

    func setPublicationEventsBaseline(_ instant: Instant) throws(StoreError)
    /// Records every issue published by `now` and not retracted as announced without pushes.
    func skipPublishedIssues(publishedBy now: Instant, at instant: Instant) throws(StoreError)
    /// Records an announcement; false when the issue had one already (it fires once, also when
    /// several processes race: the row is the proof).
    func insertPublicationEvent(_ ref: IssueRef, publishedAt: Instant, firedAt: Instant, pushed: Bool) throws(StoreError) -> Bool
    func insert(_ job: PushJob) throws(StoreError)
    /// Writes a job's cursor, end and lease.
    func updatePushJob(_ job: PushJob) throws(StoreError)

    // MARK: Circulation (E36)

    /// Makes the account's stored evidence exactly `evidence`.
    func replaceCirculationEvidence(ofAccount accountId: String, with evidence: [CirculationEvidence]) throws(StoreError)
    /// The same for each account of a batch (each account once).
    func replaceCirculationEvidence(_ accounts: [(accountId: String, evidence: [CirculationEvidence])]) throws(StoreError)
    func setCirculationFingerprint(_ fingerprint: String) throws(StoreError)
    /// Deletes the rows of accounts that no longer exist.
    func deleteCirculationEvidenceOfMissingAccounts() throws(StoreError)
    /// Adds a record to its pair's (earliest first, latest last, counts added), or stores it.
    func record(_ downloads: [DownloadRecord]) throws(StoreError)
    /// E35: erases the account's download records.
    func eraseDownloadRecords(ofAccount accountId: String) throws(StoreError)
    /// E32: moves the account's download records onto `target`'s, merging pair by pair.
    func moveDownloadRecords(from source: String, to target: String) throws(StoreError)
    // MARK: Subscribers over time (E37)
    /// Makes the stored intervals of every subscription in `facts` (owned by `accountId`, or by
    /// nobody: "") those computed from them.
    func replaceSubscriberIntervals(from facts: AccountFacts, accountId: String) throws(StoreError)
    /// Makes the stored intervals of every subscription in each computation those it holds (what a
    /// drain's batch derives, `subscriberIntervals(of:)`).
    func replaceSubscriberIntervals(_ computed: [DerivedSubscriberIntervals]) throws(StoreError)
    /// The intervals of a subscription nobody owns, computed again from its own facts.
    func refreshSubscriberIntervals(ofSubscription key: SubscriptionKey) throws(StoreError)
    func deleteAllSubscriberIntervals() throws(StoreError)

    // MARK: Reports' rows due (decision 96)

    /// Marks each account's reports' rows due (`bumpFactsVersion` marks the account it bumps).
    func markReportRowsDue(ofAccounts accountIds: [String]) throws(StoreError)
    /// Derives the rows of accounts marked due with the store's installed upkeeps, and clears
    /// their marks; answers how many. The accounts are those of `prepared` still marked, whose
    /// rows it holds unless their facts or the catalog moved since (decision 130), or without it
    /// up to `limit` marked now. Each mark is locked until commit: with `skippingLocked`, marks
    /// another unit of work holds are passed over (a background drain beside others), else waited
    /// for (a report, which must see them derived).
    func deriveDueReportRows(limit: Int, skippingLocked: Bool, prepared: PreparedReportRows?) throws(StoreError) -> Int
}
