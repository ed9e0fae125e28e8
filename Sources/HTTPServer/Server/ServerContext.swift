import Metrics
import Synchronization

/// What every event loop of one server shares: read-only configuration and router, the worker
/// pools, observability sinks and the connection count behind the limit.
final class ServerContext: Sendable {
    let configuration: HTTPServerConfiguration
    let limits: HTTPParserLimits
    let router: Router
    /// The steps every request goes through, shared with `InProcessClient`.
    let pipeline: RequestPipeline
    let metrics: Metrics
    let accessLog: AccessLog?
    let workers: WorkerPools
    let clientShares: ClientShares
    /// Connections counted against `maxConnections` (refused ones are not).
    let openConnections = Atomic<Int>(0)
    /// Bytes held by all connections (`Connection.bufferedBytes`), against `maxBufferedBytes`.
    let bufferedBytes = Atomic<Int>(0)

    /// What spooled bodies hold on disk, against `maxSpooledBytes`.
    let spoolBudget: SpoolBudget

    /// What each client holds of `bufferedBytes`, against its share.
    let clientBuffers: ClientBuffers

    var overBufferBudget: Bool { bufferedBytes.load(ordering: .relaxed) > configuration.maxBufferedBytes }

    /// Past the whole budget, or past this client's share of it.
    func overBufferBudget(for client: String?) -> Bool { overBufferBudget || clientBuffers.isOverShare(client) }

    init(configuration: HTTPServerConfiguration, router: Router, metrics: Metrics, accessLog: AccessLog?,
         workers: WorkerPools) {
        self.configuration = configuration
        limits = HTTPParserLimits(maxRequestLineBytes: configuration.maxRequestLineBytes,
                                  maxHeaderBytes: configuration.maxHeaderBytes,
                                  maxHeaderFields: configuration.maxHeaderFields,
                                  singletonFields: configuration.singletonFields)
        self.router = router
        pipeline = RequestPipeline(router: router, maxBodyBytes: configuration.maxBodyBytes)
        self.metrics = metrics
        self.accessLog = accessLog
        self.workers = workers
        clientShares = ClientShares(configuration)
        clientBuffers = ClientBuffers(configuration)
        spoolBudget = SpoolBudget(limit: configuration.maxSpooledBytes)
    }

    /// Claims a slot under the connection limit.
    func admitConnection() -> Bool {
        let after = openConnections.wrappingAdd(1, ordering: .relaxed).newValue
        if after > configuration.maxConnections {
            openConnections.wrappingSubtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    func releaseConnection() {
        openConnections.wrappingSubtract(1, ordering: .relaxed)
    }
}
