import Metrics

/// What an operator runs: the store's health, the metrics, institutions (E30) and the webhook
/// dead letters.
package struct OperationsServices: Sendable {
    package let storeHealth: StoreHealthMonitor
    package let metrics: Metrics
    package let institutions: Institutions
    package let deadLetters: DeadLetters
}
