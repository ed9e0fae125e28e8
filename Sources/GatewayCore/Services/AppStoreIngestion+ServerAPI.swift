import AppStoreKit
import Entitle
import Foundation
import GatewayStore
import OutboundHTTP
import Wire

/// What the gateway asks the App Store Server API and how the answers become facts:
/// every signed item was verified by the client (E2) and is stored through the same ingest as
/// any other fact (E1 merge, E4 ownership). Blocking (it calls Apple): workers only.
extension AppStoreIngestion {
    package var serverAPI: ServerAPIClient? { services.serverAPI }

    /// The client, or `notConfigured` for a route that needs the Server API on a gateway
    /// without credentials: no retry will help (`appStoreUnavailable` would invite one), only an operator.
    package func requireServerAPI() throws(GatewayError) -> ServerAPIClient {
        guard let serverAPI else {
            throw .notConfigured("the App Store Server API is not configured (ISSUE_GATEWAY_APPSTORE_API_*)")
        }
        return serverAPI
    }

    /// Full history from one transaction: adds the whole transaction history of every
    /// subscription among `facts` that was never fetched whole, marking it fetched (the mark is
    /// stored with the facts). Best effort: when Apple cannot answer, the facts the app sent still
    /// stand and the history is fetched on the next post.
    package func withFullHistories(_ facts: VerifiedFacts) -> VerifiedFacts {
        guard serverAPI != nil else { return facts }
        let keys = Set(facts.transactions.map(\.subscriptionKey))
        guard let missing = try? store.historiesNotFetched(keys), !missing.isEmpty else { return facts }
        var out = facts
        // One customer's history holds all their subscriptions: one call may cover several.
        for key in missing where !out.historyFetched.contains(key) {
            guard let transactionId = facts.transactions.first(where: { $0.subscriptionKey == key })?.transactionId else { continue }
            do throws(GatewayError) {
                // Apple answers the customer's whole history; only the subscriptions these facts
                // prove are kept (E4 binds them to who proved them, never one they did not).
                var history = try historyFacts(transactionId, in: key.environment)
                history.transactions.removeAll { !keys.contains($0.subscriptionKey) }
                history.historyFetched.removeAll { !keys.contains($0) }
                out.append(history)
                counters.historiesFetched.increment()
            } catch {
                counters.serverAPIFailures.increment()
                OutboundLog.standardError("the App Store Server API gave no history for \(key.originalTransactionId): \(error.message)")
            }
        }
        return out
    }

    /// The latest transaction and renewal info of every subscription in the customer's groups
    /// (Get All Subscription Statuses), as facts.
    package func statusFacts(_ transactionId: String, in environment: StoreEnvironment?) throws(GatewayError) -> VerifiedFacts {
        let serverAPI = try requireServerAPI()
        let found = try Self.answered(now: clock.now()) { () throws(ServerAPIFailure) in try serverAPI.subscriptionStatuses(transactionId, in: environment) }
        return try Self.facts(transactions: found.statuses.compactMap(\.transaction), renewals: found.statuses.compactMap(\.renewalInfo))
    }

    /// The whole transaction history of a customer, as facts, every subscription in it marked
    /// fetched whole.
    package func historyFacts(_ transactionId: String, in environment: StoreEnvironment?) throws(GatewayError) -> VerifiedFacts {
        let serverAPI = try requireServerAPI()
        let history = try Self.answered(now: clock.now()) { () throws(ServerAPIFailure) in try serverAPI.transactionHistory(transactionId, in: environment) }
        var facts = try Self.facts(transactions: history.transactions, renewals: [])
        facts.historyFetched = Array(Set(facts.transactions.map(\.subscriptionKey)))
        return facts
    }

    /// The customer's refunded transactions Apple knows (Refund History v2), as facts: a refund
    /// that no notification reported is found with one lookup, not a history walk.
    package func refundFacts(_ transactionId: String, in environment: StoreEnvironment?) throws(GatewayError) -> VerifiedFacts {
        let serverAPI = try requireServerAPI()
        let refunds = try Self.answered(now: clock.now()) { () throws(ServerAPIFailure) in
            try serverAPI.refundHistory(transactionId, in: environment)
        }
        return try Self.facts(transactions: refunds.transactions, renewals: [])
    }

    /// Payloads the client verified (E2), through the Entitle parsers; one that does not parse
    /// makes Apple's answer unusable (`appStoreUnavailable`).
    private static func facts(transactions: [VerifiedPayload], renewals: [VerifiedPayload]) throws(GatewayError) -> VerifiedFacts {
        var facts = VerifiedFacts()
        do {
            facts.transactions = try transactions.map { try AppStoreParsers.signedTransaction(payload: $0.payload) }
            facts.renewals = try renewals.map { try AppStoreParsers.signedRenewalInfo(payload: $0.payload) }
        } catch {
            throw .appStoreUnavailable("the App Store's answer could not be read: \(error)")
        }
        return facts
    }

    /// `POST /v1/accounts/{id}/refresh`: statuses and history of every App Store subscription among
    /// the account's `subscriptions`, asked now. Stored for nobody, as a poll's facts (E4: they go to whoever owns them
    /// when stored; the account read before the slow calls may have lost one since).
    /// Without Server API credentials the stored latest receipts are re-verified instead, as the
    /// status poller does.
    package func refresh(_ accountSubscriptions: [SubscriptionKey]) throws(GatewayError) {
        let subscriptions = accountSubscriptions.filter { $0.store == .appStore }
        var facts = VerifiedFacts()
        if serverAPI == nil {
            var receipts: Set<String> = []
            for key in subscriptions {
                if let stored = try stored({ () throws(StoreError) in try store.latestReceipt(for: key) }) {
                    receipts.insert(stored.receiptData)
                }
            }
            for receipt in receipts.sorted() { facts.append(try verifyReceipt(receipt)) }
        } else {
            // One customer's history holds all their subscriptions: asked once per customer. A
            // subscription whose history was fetched whole already needs only what may have
            // changed since: its status (renewals) and the refunds Apple knows (one refund lookup
            // instead of the whole history again).
            let notFetched = try stored { () throws(StoreError) in try store.historiesNotFetched(Set(subscriptions)) }
            var covered: Set<SubscriptionKey> = []
            var refundsAsked: Set<SubscriptionKey> = []
            for key in subscriptions {
                facts.append(try statusFacts(key.originalTransactionId, in: key.environment))
                if notFetched.contains(key) {
                    guard !covered.contains(key) else { continue }
                    let history = try historyFacts(key.originalTransactionId, in: key.environment)
                    covered.formUnion(history.historyFetched)
                    facts.append(history)
                } else if !refundsAsked.contains(key) {
                    let refunds = try refundFacts(key.originalTransactionId, in: key.environment)
                    refundsAsked.formUnion(refunds.transactions.map(\.subscriptionKey))
                    refundsAsked.insert(key)
                    facts.append(refunds)
                }
            }
        }
        // Without the Server API the facts are receipts' and say so themselves.
        try intake.saveForOwners(facts, source: serverAPI == nil ? nil : .serverApi)
    }

    /// A Server API failure as the API's answer: Apple unreachable, or refusing the gateway's
    /// credentials (only an operator fixes them), is `appStoreUnavailable`; Apple refusing the request itself
    /// `appStoreRefused`; an unknown transaction `notFound`. Apple's rate limit passes its wait
    /// on as `Retry-After` in seconds from `now` (Apple gives a UNIX time in milliseconds).
    package static func answered<T>(now: Instant, _ call: () throws(ServerAPIFailure) -> T) throws(GatewayError) -> T {
        do { return try call() } catch {
            switch error {
            case .notFound: throw .notFound("the App Store knows no such transaction")
            case .unauthorized:
                throw .appStoreUnavailable("the App Store Server API refused the gateway's credentials (ISSUE_GATEWAY_APPSTORE_API_*)")
            case .rejected(let status, let code):
                throw .appStoreRefused(status: status, appStoreErrorCode: code)
            case .unavailable(.rateLimited(let until?)):
                throw .appStoreUnavailable("the App Store Server API is rate limiting the gateway",
                                           retryAfterSeconds: RetryAfter.seconds(until: until, now: now))
            default:
                throw .appStoreUnavailable("the App Store Server API could not answer now: \(error)")
            }
        }
    }
}

/// What a renewal date extension did: Apple's answer and the subscription's owner, for the
/// answer and for the account history's recorder ("extended by the operator").
package struct ExtensionOutcome: Sendable {
    package let originalTransactionId: String
    /// The operator's note (http-api.md: "recorded in the account's history").
    package let note: String?
    package let environment: StoreEnvironment
    package let result: ServerAPIExtensionResult
    package let accountId: String?
    package let facts: VerifiedFacts
}

extension AppStoreIngestion {
    /// Extends a subscription's renewal date (compensating readers for a missed issue), then
    /// stores its new status, so the longer period counts before Apple's RENEWAL_EXTENDED arrives,
    /// and records the extension in the owner's history.
    package func extendRenewalDate(_ originalTransactionId: String, _ extension: ServerAPIExtension,
                           note: String?) throws(GatewayError) -> ExtensionOutcome {
        let serverAPI = try requireServerAPI()
        // The environment the gateway knows the subscription in; unknown: production, then sandbox.
        let known = try stored { () throws(StoreError) -> StoreEnvironment? in
            for environment in StoreEnvironment.allCases
            where try store.owner(of: SubscriptionKey(environment: environment, originalTransactionId: originalTransactionId)) != nil {
                return environment
            }
            return nil
        }
        let (environment, result) = try Self.answered(now: clock.now()) { () throws(ServerAPIFailure) in
            try serverAPI.extendRenewalDate(originalTransactionId, `extension`, in: known)
        }
        var facts = VerifiedFacts()
        if result.success { facts = (try? statusFacts(originalTransactionId, in: environment)) ?? VerifiedFacts() }
        // Apple has answered: a failure to store the new status (storage busy) must not become an
        // error whose retry extends again; the status arrives with RENEWAL_EXTENDED or the poller.
        let saved: IngestResult
        do { saved = try intake.saveForOwners(facts, source: .serverApi) } catch {
            OutboundLog.standardError("the extended status of \(originalTransactionId) was not stored: \(error.message)")
            saved = IngestResult(owners: [:], previousOwners: [])
        }
        let key = SubscriptionKey(environment: environment, originalTransactionId: originalTransactionId)
        let stillOwned = try stored { () throws(StoreError) in try store.owner(of: key) }
        let owner = saved.owners[key] ?? stillOwned
        let outcome = ExtensionOutcome(originalTransactionId: originalTransactionId, note: note, environment: environment,
                                       result: result, accountId: owner, facts: facts)
        // Apple has extended: recording it must not turn that into an error a retry would
        // repeat (the history is best effort once Apple said yes).
        do throws(GatewayError) { try record(outcome, `extension`) } catch {
            OutboundLog.standardError("the extension of \(originalTransactionId) is not in the history: \(error.message)")
        }
        return outcome
    }

    /// http-api.md: an extension is "recorded in the account's history", as an operator action on
    /// the account that owns the subscription (none: nobody's history to record it in).
    private func record(_ outcome: ExtensionOutcome, _ asked: ServerAPIExtension) throws(GatewayError) {
        guard let accountId = outcome.accountId else { return }
        var details = JSONObject()
        details.set("originalTransactionId", .string(outcome.originalTransactionId))
        details.set("environment", .string(outcome.environment.rawValue))
        details.set("days", .integer(Int64(asked.days)))
        details.set("reasonCode", .integer(Int64(asked.reasonCode)))
        details.set("success", .bool(outcome.result.success))
        if let effective = outcome.result.effectiveDate { details.set("effectiveDate", .string(effective.rfc3339)) }
        if let note = outcome.note { details.set("note", .string(note)) }
        let now = clock.now()
        guard try stored({ () throws(StoreError) in
            try store.recordOperatorAction("extendRenewalDate", on: accountId, details: details, at: now)
        }) else { throw .notFound("account \(accountId)") }
    }
}
