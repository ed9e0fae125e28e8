import GatewayStore
import Lifecycle
import Synchronization

/// Whether the store answers, for `GET /healthz`: a background thread reads the
/// catalog revision every `interval` and keeps the outcome; the route reads it from memory, so an
/// event loop never waits on the database. A database that comes back is noticed on the next
/// probe: health recovers by itself.
public final class StoreHealthMonitor: ThreadBackedService {
    package static let standardInterval: Duration = .milliseconds(250)

    private let store: any GatewayStore
    private let interval: Duration
    private let reachable = Atomic<Bool>(true)
    public let serviceThread = ServiceThread(name: "store-health")

    /// Starts healthy: the store was just opened (and migrated) when the gateway was built.
    package init(store: any GatewayStore, interval: Duration = StoreHealthMonitor.standardInterval) {
        self.store = store
        self.interval = interval
    }

    /// The outcome of the last probe.
    public var isReachable: Bool { reachable.load(ordering: .acquiring) }

    public func run(until stop: StopToken) {
        while !stop.pause(for: interval) { probe() }
    }

    /// One read; true when the store answered.
    @discardableResult
    package func probe() -> Bool {
        let answered = (try? store.catalogRevision()) != nil
        reachable.store(answered, ordering: .releasing)
        return answered
    }
}
