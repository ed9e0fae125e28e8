/// What publishers and auditors read (reports.md): subscribers over time (E37).
package struct ReportServices: Sendable {
    package let subscribers: SubscriberMetrics
}
