import Foundation
import GatewayStore
import HTTPServer

/// Everything `issue-gateway serve` runs: the API on the HTTP server, the status poller and the
/// catalog watcher. Tests build it the same way on an ephemeral port.
struct GatewayRuntime: Sendable {
    let gateway: Gateway
    let server: HTTPServer
    let poller: StatusPoller?
    let catalogWatcher: CatalogWatcher

    /// `configuration` must have its secrets resolved. `appStore` defaults to the real clients
    /// built from the configuration; `pollerSettings` nil runs no poller.
    static func make(configuration: Configuration, store: any GatewayStore, clock: any GatewayClock = SystemClock(),
                     appStore: AppStoreServices? = nil, http: HTTPServerConfiguration? = nil, accessLog: AccessLog? = nil,
                     pollerSettings: StatusPollerSettings? = .standard) throws(Gateway.StartError) -> GatewayRuntime {
        let metrics = Metrics()
        let services: AppStoreServices
        if let appStore {
            services = appStore
        } else {
            let calls = GatewayCounters.appStoreCallObserver(metrics)
            services = try AppStoreServices.from(configuration, clock: clock, counters: calls)
        }
        let gateway = try Gateway(configuration: configuration, store: store, appStore: services, metrics: metrics, clock: clock)
        var settings = http ?? HTTPServerConfiguration()
        if http == nil {
            settings.host = configuration.listen.host
            settings.port = Int(configuration.listen.port)
            settings.threads = configuration.threads
        }
        // The API's bulkheads are sized by its configuration, also under a test's server settings.
        settings.workerPools = configuration.workerPools
        let server = HTTPServer(configuration: settings, router: gateway.makeRouter(), metrics: metrics, accessLog: accessLog)
        let poller = pollerSettings.map {
            StatusPoller(settings: $0, store: store, ingestion: gateway.appStore, clock: clock, counters: gateway.counters)
        }
        return GatewayRuntime(gateway: gateway, server: server, poller: poller,
                              catalogWatcher: CatalogWatcher(catalog: gateway.catalog))
    }
}
