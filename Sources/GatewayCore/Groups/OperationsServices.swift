import Metrics

/// What an operator runs: the store's health, the metrics, institutions (E30), the webhook
/// dead letters and the circulation reports (E36).
package struct OperationsServices: Sendable {
    package let storeHealth: StoreHealthMonitor
    package let metrics: Metrics
    package let institutions: Institutions
    package let deadLetters: DeadLetters
    /// E36: issues' circulation, and the download records it counts.
    package let circulation: Circulation
    package let downloads: DownloadRecorder
    /// E36, E37: the reports' rows of the accounts whose facts changed, derived off the request.
    package let reportRows: ReportRowsDrain
}
