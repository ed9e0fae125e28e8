import GatewayCore
import HTTPServer
import Metrics

/// `GET /healthz`, `GET /metrics`, `GET /openapi.json` (http-api.md, Operations).
package struct OperationsController: APIController {
    private let storeHealth: StoreHealthMonitor
    private let metrics: Metrics

    package init(storeHealth: StoreHealthMonitor, metrics: Metrics) {
        self.storeHealth = storeHealth; self.metrics = metrics
    }

    package func register(_ router: APIRouterBuilder) {
        let health = HTTPResponse.json(200, Array(#"{"status":"ok"}"#.utf8))
        let storeUnreachable = GatewayError.storageUnreachable.response
        let storeHealth = self.storeHealth
        // From memory (`StoreHealthMonitor`): 503 while the database cannot be reached, 200 again
        // once it answers.
        router.add("GET", "/healthz", handler: { _ in storeHealth.isReachable ? health : storeUnreachable })
        let metrics = self.metrics
        router.add("GET", "/metrics", handler: { _ in
            .text(200, metrics.render(), contentType: "text/plain; version=0.0.4; charset=utf-8")
        })
        // The document never changes while the process runs: it is compressed once here, not on
        // the event loop for every anonymous request that accepts gzip.
        let openAPI = HTTPResponse.json(200, OpenAPIDocument.bytes)
        let plain = JSONCoding.precoded(openAPI, gzip: false), gzipped = JSONCoding.precoded(openAPI, gzip: true)
        router.add("GET", "/openapi.json") { request in AcceptEncoding.allowsGzip(request) ? gzipped : plain }
    }
}
