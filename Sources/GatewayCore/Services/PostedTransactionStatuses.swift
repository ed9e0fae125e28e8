import AppStoreKit
import Dispatch
import Entitle
import GatewayStore
import Lifecycle
import OutboundHTTP
import Wire

/// How the statuses of a posted signed transaction's subscription are fetched (http-api.md,
/// Support, grants and Apple's current API).
package struct PostedStatusSettings: Sendable {
    /// How long the post waits for Apple's statuses before it answers without them: the spec asks
    /// for them in the answer, or at the latest one second after it; a fetch still running then
    /// stores its facts when Apple answers.
    package var answerWait: Duration = .milliseconds(800)
    /// Background attempts after the first failed one; the status poller covers what is left.
    package var retries = 5
    /// 2 s before the first retry, doubling (less jitter) up to 2 minutes.
    package var backoff = RetryBackoff(base: .seconds(2), maximum: .seconds(120))

    package static let standard = PostedStatusSettings()
}

/// After a StoreKit 2 signed transaction is posted and stored, its subscription's statuses (Get
/// All Subscription Statuses) are fetched on the App Store pool, so that state, renewal and grace
/// come from Apple's renewal info at once instead of at the next poll or refresh. A fetch that
/// fails is retried in the background with exponential backoff and jitter; it never fails the
/// post (whose facts are already stored). The facts go to whoever owns the subscription when they
/// are stored (E4), as a poll's do.
package final class PostedTransactionStatuses: Sendable {
    private let ingestion: AppStoreIngestion
    private let work: WorkPool
    private let settings: PostedStatusSettings
    private let jitter: @Sendable () -> Double

    /// `jitter` gives a fraction in 0..<1 (tests pass a constant).
    package init(ingestion: AppStoreIngestion, work: WorkPool, settings: PostedStatusSettings = .standard,
                 jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.ingestion = ingestion; self.work = work; self.settings = settings; self.jitter = jitter
    }

    /// The subscriptions among `transactions` (single purchases have no status), one transaction
    /// id each: Apple answers every group of the customer for any of them.
    package static func subscriptions(among transactions: [Transaction]) -> [(SubscriptionKey, String)] {
        var seen: Set<SubscriptionKey> = []
        var out: [(SubscriptionKey, String)] = []
        for transaction in transactions where transaction.expiresDate != nil && transaction.store == .appStore {
            if seen.insert(transaction.subscriptionKey).inserted { out.append((transaction.subscriptionKey, transaction.transactionId)) }
        }
        return out.sorted { $0.0 < $1.0 }
    }

    /// Fetches and stores the statuses of the subscriptions among `transactions` on the pool and
    /// waits up to `answerWait` for them; true when they were stored within it. Without Server API
    /// credentials, or with nothing to ask, nothing happens.
    @discardableResult
    package func fetch(after transactions: [Transaction]) -> Bool {
        guard ingestion.serverAPI != nil else { return false }
        let subscriptions = Self.subscriptions(among: transactions)
        guard !subscriptions.isEmpty else { return false }
        let done = Condition(false)
        let queued = work.submit { [self] in
            attempt(subscriptions, failures: 0) {
                done.withLock { $0 = true }
                done.broadcast()
            }
        }
        guard queued else { return false }
        return done.withLock(when: { $0 }, timeout: settings.answerWait) { $0 }
    }

    /// One attempt; on failure the next is scheduled after the backoff, on the pool again.
    private func attempt(_ subscriptions: [(SubscriptionKey, String)], failures: Int, stored: @escaping @Sendable () -> Void) {
        do throws(GatewayError) {
            var facts = VerifiedFacts()
            for (key, transactionId) in subscriptions
            where !facts.transactions.contains(where: { $0.subscriptionKey == key }) {
                facts.append(try ingestion.statusFacts(transactionId, in: key.environment))
            }
            try ingestion.intake.saveForOwners(facts, source: .serverApi)
            ingestion.counters.postedStatusesFetched.increment()
            stored()
        } catch {
            ingestion.counters.serverAPIFailures.increment()
            // Apple knowing no such transaction, no Server API configured or Apple refusing the
            // request will not change by asking again.
            guard error.isTransient, failures < settings.retries else {
                OutboundLog.standardError("the statuses of a posted transaction were not fetched: \(error.message)")
                return
            }
            let delay = settings.backoff.delay(afterFailures: failures + 1, jitter: jitter())
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(delay.milliseconds))) { [self] in
                _ = work.submit { [self] in attempt(subscriptions, failures: failures + 1, stored: stored) }
            }
        }
    }
}
