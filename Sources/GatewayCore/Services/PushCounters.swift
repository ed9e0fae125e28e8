import Metrics

/// What pushes and webhooks did, on `/metrics` (progress and failures).
package final class PushCounters: Sendable {
    package let webhooksDelivered: Counter
    package let webhookFailures: Counter
    package let webhooksDeadLettered: Counter
    package let outboxLength: Gauge
    package let publicationsFired: Counter
    package let pushesSent: Counter
    package let pushesUnregistered: Counter
    package let pushFailures: Counter
    package let pushJobsPending: Gauge
    private let metrics: Metrics

    package init(_ metrics: Metrics) {
        self.metrics = metrics
        webhooksDelivered = metrics.counter("issue_gateway_webhooks_total", help: "Webhook delivery attempts by result",
                                            labels: [("result", "delivered")])
        webhookFailures = metrics.counter("issue_gateway_webhooks_total", help: "Webhook delivery attempts by result",
                                          labels: [("result", "failed")])
        webhooksDeadLettered = metrics.counter("issue_gateway_webhooks_dead_lettered_total",
                                               help: "Webhook events set aside after failing for the configured time")
        outboxLength = metrics.gauge("issue_gateway_webhook_outbox_events", help: "Webhook events waiting for a 2xx")
        publicationsFired = metrics.counter("issue_gateway_publication_events_total",
                                            help: "Issues whose publication was announced (pushes and issue.published)")
        pushesSent = metrics.counter("issue_gateway_apns_pushes_total", help: "APNs pushes by result", labels: [("result", "sent")])
        pushesUnregistered = metrics.counter("issue_gateway_apns_pushes_total", help: "APNs pushes by result",
                                             labels: [("result", "unregistered")])
        pushFailures = metrics.counter("issue_gateway_apns_pushes_total", help: "APNs pushes by result", labels: [("result", "failed")])
        pushJobsPending = metrics.gauge("issue_gateway_push_jobs_pending", help: "Published issues whose pushes are still going out")
    }

    /// APNs 400s and other refusals by Apple's `reason`, one series per reason, created on first use.
    package func pushRejected(reason: String) {
        metrics.counter("issue_gateway_apns_rejections_total", help: "APNs refusals by status and reason",
                        labels: [("reason", reason)]).increment()
    }
}
