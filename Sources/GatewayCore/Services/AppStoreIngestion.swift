import AppStoreKit
import Entitle
import Foundation
import GatewayCrypto
import GatewayStore
import IssueCatalog

/// Facts proved to come from their store (E2: Apple's signatures and answers, a Stripe event's
/// signature or Stripe's API), ready to be stored.
package struct VerifiedFacts: Sendable {
    package var transactions: [Transaction] = []
    package var renewals: [RenewalInfo] = []
    /// The receipt to keep for status polling (Apple's `latest_receipt` when it sends one).
    package var receiptData: String?
    /// Subscriptions whose whole history (App Store Server API) is among the facts.
    package var historyFetched: [SubscriptionKey] = []
    /// Owners the store names (`IngestBatch.namedOwners`).
    package var namedOwners: [SubscriptionKey: String] = [:]
    /// The store's customer behind each subscription (`IngestBatch.customers`).
    package var customers: [SubscriptionKey: String] = [:]
    /// Google Play subscription snapshots fetched for these facts (`IngestBatch.playSnapshots`).
    package var playSnapshots: [PlaySnapshotRecord] = []

    package init(transactions: [Transaction] = [], renewals: [RenewalInfo] = [], receiptData: String? = nil, historyFetched: [SubscriptionKey] = []) {
        self.transactions = transactions; self.renewals = renewals; self.receiptData = receiptData; self.historyFetched = historyFetched
    }

    package mutating func append(_ other: VerifiedFacts) {
        transactions += other.transactions
        renewals += other.renewals
        receiptData = other.receiptData ?? receiptData
        historyFetched += other.historyFetched
        namedOwners.merge(other.namedOwners) { _, new in new }
        customers.merge(other.customers) { _, new in new }
        playSnapshots += other.playSnapshots
    }
}

/// Turns what reader apps and the App Store send into verified facts and stores them: receipts
/// through verifyReceipt, signed transactions and V2 notifications through their x5c chain, V1
/// notifications through the shared secret. Blocking (it calls Apple): workers only.
package final class AppStoreIngestion: Sendable {
    package let services: AppStoreServices
    package let store: any GatewayStore
    private let accounts: AccountFactsCache
    private let ownership: OwnershipPolicy
    private let events: EventPolicy
    package let clock: any GatewayClock
    package let counters: GatewayCounters

    package init(services: AppStoreServices, store: any GatewayStore, accounts: AccountFactsCache,
         ownership: OwnershipPolicy, events: EventPolicy = .off, clock: any GatewayClock, counters: GatewayCounters) {
        self.events = events
        self.services = services; self.store = store; self.accounts = accounts
        self.ownership = ownership; self.clock = clock; self.counters = counters
    }

    // MARK: Verification

    /// verifyReceipt's outcome table (appstore.md): `receiptRejected` for a receipt Apple refuses,
    /// `appStoreUnavailable` when Apple cannot be reached or the shared secret is wrong.
    package func verifyReceipt(_ receiptData: String) throws(GatewayError) -> VerifiedFacts {
        switch services.receipts.verify(receiptData: receiptData) {
        case .valid(let body, _):
            let response: VerifyReceiptResponse
            do { response = try AppStoreParsers.verifyReceipt(body, observedAt: clock.now()) } catch {
                throw .appStoreUnavailable("the App Store's answer could not be read: \(error)")
            }
            if let expected = services.bundleId, let bundleId = response.bundleId, bundleId != expected {
                throw .receiptRejected("the receipt belongs to another app (\(bundleId))")
            }
            return VerifiedFacts(transactions: response.transactions, renewals: response.renewals,
                                 receiptData: response.latestReceipt ?? receiptData)
        case .rejected(let status):
            throw .receiptRejected("the App Store refused the receipt (status \(status))", appStoreStatus: status)
        case .misconfigured(let status):
            throw .appStoreUnavailable("the gateway's App Store shared secret is wrong (status \(status))")
        case .unavailable(let reason):
            throw .appStoreUnavailable("the App Store could not verify the receipt now: \(reason)")
        }
    }

    /// StoreKit 2 signed transactions (JWS, x5c to a configured root).
    package func verifySignedTransactions(_ compacts: [String]) throws(GatewayError) -> VerifiedFacts {
        guard let verifier = services.signedData else {
            throw .receiptRejected("signed transactions are not accepted: no Apple root certificates or bundle id are configured")
        }
        var facts = VerifiedFacts()
        for (index, compact) in compacts.enumerated() {
            do {
                let verified = try verifier.verify(compact, as: .transaction)
                facts.transactions.append(try AppStoreParsers.signedTransaction(payload: verified.payload))
            } catch {
                throw .receiptRejected("signedTransactions[\(index)] was refused: \(Self.clientText(error))")
            }
        }
        return facts
    }

    /// A refusal as a client may read it: the verifier's fixed sentence (never libcrypto's text),
    /// or the parser's own description of what is missing.
    private static func clientText(_ error: any Error) -> String {
        (error as? SignedDataVerificationError)?.clientDescription ?? "\(error)"
    }

    // MARK: Storing

    /// Stores the facts an account brought (its receipt, its signed transactions) all-or-nothing:
    /// `.refused` when E4 under `keep` leaves them with another account, and then nothing changed.
    package func save(_ facts: VerifiedFacts, for accountId: String) throws(GatewayError) -> IngestOutcome {
        guard !Self.carriesNothing(facts, notificationUUID: nil) else { return .stored(IngestResult(owners: [:], previousOwners: [])) }
        return try ingest({ _ throws(StoreError) in facts }, accountId: accountId, notificationUUID: nil, source: nil)
    }

    /// `save` for facts that depend on what the store keeps (Google Play's periods built from the
    /// snapshots kept, E25): `build` reads in the write unit of work that stores what it returns,
    /// and runs again whenever that unit of work does, so it never builds from a state another
    /// writer changed meanwhile.
    package func save(building build: (any ReadTransaction) throws(StoreError) -> VerifiedFacts,
                      for accountId: String) throws(GatewayError) -> IngestOutcome {
        try ingest(build, accountId: accountId, notificationUUID: nil, source: nil)
    }

    /// Stores facts no account brought (notifications, polls, the Server API) all-or-nothing, for
    /// whoever owns them. `source` names the path for the history when the facts' own sources do
    /// not (a status poll).
    @discardableResult
    package func saveForOwners(_ facts: VerifiedFacts, notificationUUID: String? = nil,
                               source: HistorySource? = nil) throws(GatewayError) -> IngestResult {
        guard !Self.carriesNothing(facts, notificationUUID: notificationUUID) else { return IngestResult(owners: [:], previousOwners: []) }
        return try saveForOwners(building: { _ throws(StoreError) in facts }, notificationUUID: notificationUUID, source: source)
    }

    /// Nothing to store: no write unit of work is opened.
    private static func carriesNothing(_ facts: VerifiedFacts, notificationUUID: String?) -> Bool {
        facts.transactions.isEmpty && facts.renewals.isEmpty && facts.namedOwners.isEmpty && facts.customers.isEmpty
            && facts.playSnapshots.isEmpty && notificationUUID == nil
    }

    /// `saveForOwners` with facts built in the unit of work that stores them (`save(building:for:)`).
    @discardableResult
    package func saveForOwners(building build: (any ReadTransaction) throws(StoreError) -> VerifiedFacts,
                               notificationUUID: String? = nil, source: HistorySource? = nil) throws(GatewayError) -> IngestResult {
        switch try ingest(build, accountId: nil, notificationUUID: notificationUUID, source: source) {
        case .stored(let result): return result
        // E4 hands facts without a requester to their owner, so `keep` has nothing to refuse;
        // were the store to refuse, the client hears what an account would.
        case .refused: throw .ownedByOtherAccount
        }
    }

    /// Ingests one batch and forgets the cached facts of every account whose entitlements it
    /// changed (none when refused: nothing changed).
    private func ingest(_ build: (any ReadTransaction) throws(StoreError) -> VerifiedFacts, accountId: String?,
                        notificationUUID: String?, source: HistorySource?) throws(GatewayError) -> IngestOutcome {
        let at = clock.now(), ingestor = FactIngestor(policy: ownership, events: events)
        let outcome = try stored { () throws(StoreError) in
            try store.write { tx throws(StoreError) in
                let facts = try build(tx)
                guard !Self.carriesNothing(facts, notificationUUID: notificationUUID) else {
                    return IngestOutcome.stored(IngestResult(owners: [:], previousOwners: []))
                }
                var batch = IngestBatch(accountId: accountId, transactions: facts.transactions, renewalInfos: facts.renewals,
                                        receiptData: facts.receiptData, notificationUUID: notificationUUID, at: at,
                                        source: source)
                batch.historyFetched = facts.historyFetched
                batch.namedOwners = facts.namedOwners
                batch.customers = facts.customers
                batch.playSnapshots = facts.playSnapshots
                return try ingestor.ingest(batch, into: tx)
            }
        }
        guard case .stored(let result) = outcome else { return outcome }
        var touched = result.previousOwners
        for owner in result.owners.values { if let owner { touched.insert(owner) } }
        if let accountId { touched.insert(accountId) }
        accounts.invalidate(touched)
        return outcome
    }

    // MARK: Notifications

    /// A V1 notification's raw body (`notification_type`), proved by the shared secret (E2).
    package func takeV1(_ raw: [UInt8]) throws(GatewayError) {
        let notification: NotificationV1
        do { notification = try AppStoreParsers.notificationV1(Data(raw), observedAt: clock.now()) } catch {
            throw .invalid("malformed V1 notification: \(error)")
        }
        // E2: a V1 notification proves itself only by the shared secret, compared in constant time.
        guard let expected = services.sharedSecret, let sent = notification.password,
              ConstantTime.equals(Array(sent.utf8), Array(expected.utf8)) else {
            throw .unauthorized("wrong shared secret")
        }
        if let receipt = notification.unifiedReceipt {
            try saveForOwners(VerifiedFacts(transactions: receipt.transactions, renewals: receipt.renewals,
                                             receiptData: receipt.latestReceipt), source: .notificationV1)
        }
        counters.notificationsTaken.increment()
    }

    /// A V2 notification, from Apple's POST or replayed from the Server API's notification
    /// history: verified (E2), its facts stored for their owner, deduplicated by UUID. Returns
    /// what it was and what it changed (for the account history's recorder).
    @discardableResult
    package func takeV2(_ signedPayload: String) throws(GatewayError) -> NotificationV2Outcome {
        guard let verifier = services.signedData else { throw .unauthorized("V2 notifications are not accepted: no Apple root certificates or bundle id are configured") }
        let verified: VerifiedNotification
        do { verified = try verifier.verifyNotification(signedPayload) } catch {
            // http-api.md: `invalid` for what is not a notification at all, `unauthorized` for a refused signature.
            switch error {
            case .tooLarge, .malformedCompactSerialization, .malformedHeader, .malformedPayload:
                throw .invalid("malformed V2 notification: \(error.clientDescription)")
            default:
                throw .unauthorized("the notification's signature was refused: \(error.clientDescription)")
            }
        }
        let notification: NotificationV2
        var facts = VerifiedFacts()
        do {
            notification = try AppStoreParsers.notificationV2(payload: verified.notification.payload)
            if let transaction = verified.transaction {
                facts.transactions.append(try AppStoreParsers.signedTransaction(payload: transaction.payload))
            }
            if let renewal = verified.renewalInfo {
                facts.renewals.append(try AppStoreParsers.signedRenewalInfo(payload: renewal.payload))
            }
        } catch {
            throw .invalid("malformed V2 notification: \(error)")
        }
        // A subscription the gateway has not seen whole brings its whole history
        // (Server API configured; best effort), stored in the same unit of work.
        facts = withFullHistories(facts)
        // The UUID is recorded in the unit of work that stores the facts: a failure that may pass
        // (storage busy) leaves it unrecorded, so Apple's retry is taken; a duplicate
        // changes nothing.
        // Its facts are signed payloads (`.signedTransaction`); the history names the notification.
        let result = try saveForOwners(facts, notificationUUID: notification.notificationUUID, source: .notificationV2)
        (result.duplicateNotification ? counters.notificationsDuplicate : counters.notificationsTaken).increment()
        if !result.duplicateNotification { counters.notificationTaken(type: notification.notificationType) }
        return NotificationV2Outcome(notification: notification, facts: facts, result: result)
    }
}
