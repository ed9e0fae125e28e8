import AppStoreKit
import DownloadTokens
import Entitle
import Metrics

/// The gateway's own counters in `/metrics` (http-api.md: tokens issued and verified, App Store
/// calls), beside the HTTP server's requests, latency and connections.
package final class GatewayCounters: Sendable {
    private let metrics: Metrics
    package let tokensIssued: Counter
    /// Bearer secrets hashed (SHA-256): at most one per request.
    package let secretsHashed: Counter
    private let verified: [String: Counter]
    package let notificationsTaken: Counter
    package let notificationsDuplicate: Counter
    package let pollRuns: Counter
    package let pollChecks: Counter
    package let pollFailures: Counter
    /// App Store Server API work.
    package let historiesFetched: Counter
    package let serverAPIFailures: Counter
    package let postedStatusesFetched: Counter
    package let backfillReplayed: Counter
    /// The cold path's two costs, so that a surge can be read per reader: accounts whose facts
    /// were read from the store, and facts evaluated by the engine (E5–E22).
    package let factsReads: Counter
    package let evaluations: Counter

    package init(_ metrics: Metrics) {
        self.metrics = metrics
        tokensIssued = metrics.counter("issue_gateway_tokens_issued_total", help: "Download tokens issued")
        secretsHashed = metrics.counter("issue_gateway_bearer_secrets_hashed_total", help: "Bearer secrets hashed (SHA-256)")
        var verified: [String: Counter] = [:]
        verified["allow"] = metrics.counter("issue_gateway_tokens_verified_total", help: "Edge token checks by result",
                                            labels: [("result", "allow")])
        for failure in TokenFailure.allCases {
            verified[failure.rawValue] = metrics.counter("issue_gateway_tokens_verified_total",
                                                         help: "Edge token checks by result",
                                                         labels: [("result", failure.rawValue)])
        }
        self.verified = verified
        notificationsTaken = metrics.counter("issue_gateway_appstore_notifications_total",
                                             help: "App Store notifications taken", labels: [("result", "taken")])
        notificationsDuplicate = metrics.counter("issue_gateway_appstore_notifications_total",
                                                 help: "App Store notifications taken", labels: [("result", "duplicate")])
        pollRuns = metrics.counter("issue_gateway_status_poll_runs_total", help: "Status poller passes")
        pollChecks = metrics.counter("issue_gateway_status_poll_checks_total", help: "Receipts re-verified by the status poller")
        pollFailures = metrics.counter("issue_gateway_status_poll_failures_total",
                                       help: "Status poller re-verifications that did not succeed")
        historiesFetched = metrics.counter("issue_gateway_appstore_histories_fetched_total",
                                           help: "Subscriptions whose whole history was fetched from the App Store Server API")
        serverAPIFailures = metrics.counter("issue_gateway_appstore_server_api_failures_total",
                                            help: "App Store Server API calls that gave no usable answer")
        postedStatusesFetched = metrics.counter("issue_gateway_appstore_posted_statuses_fetched_total",
                                                help: "Subscription statuses fetched after a signed transaction was posted")
        backfillReplayed = metrics.counter("issue_gateway_appstore_backfill_notifications_total",
                                           help: "Notifications replayed from the App Store's notification history")
        factsReads = metrics.counter("issue_gateway_facts_reads_total", help: "Accounts whose facts were read from the store")
        evaluations = metrics.counter("issue_gateway_entitlement_evaluations_total",
                                      help: "Accounts' facts evaluated by the entitlement engine")
    }

    /// A V2 notification taken (not a duplicate), by type (`NotificationV2Types.label`).
    package func notificationTaken(type: String) {
        metrics.counter("issue_gateway_appstore_notifications_by_type_total", help: "V2 notifications taken, by type",
                        labels: [("type", NotificationV2Types.label(type))]).increment()
    }

    package func tokenChecked(_ decision: EdgeDecision) {
        verified[decision.failure?.rawValue ?? "allow"]?.increment()
    }

    /// Counts every verifyReceipt request by endpoint and what came of it, one series per pair,
    /// created on first use.
    package static func appStoreCallObserver(_ metrics: Metrics) -> @Sendable (VerifyReceiptAttempt) -> Void {
        { attempt in
            let outcome: String
            switch attempt.result {
            case .outcome(.valid): outcome = "valid"
            case .outcome(.rejected): outcome = "rejected"
            case .outcome(.misconfigured): outcome = "misconfigured"
            case .outcome(.unavailable), .retry: outcome = "unavailable"
            case .redirect: outcome = "redirect"
            }
            metrics.counter("issue_gateway_appstore_calls_total", help: "verifyReceipt calls by endpoint and outcome",
                            labels: [("endpoint", attempt.endpoint.rawValue), ("outcome", outcome)]).increment()
        }
    }

    /// Counts every App Store Server API request by endpoint, environment and what came of it.
    package static func serverAPICallObserver(_ metrics: Metrics) -> @Sendable (ServerAPIAttempt) -> Void {
        { attempt in
            let outcome = switch attempt.step {
            case .success: "success"
            case .tryOtherEnvironment: "otherEnvironment"
            case .retry(.rateLimited): "rateLimited"
            case .retry: "retry"
            case .failure: "failure"
            }
            metrics.counter("issue_gateway_appstore_server_api_calls_total", help: "App Store Server API requests",
                            labels: [("endpoint", attempt.endpoint), ("environment", attempt.environment.rawValue),
                                     ("outcome", outcome)]).increment()
        }
    }
}
