import Entitle
import GatewayStore
import IssueCatalog
import Wire

/// E37: subscribers over time for one publication, from the stored subscription intervals
/// (kept up to date at ingest) and the catalog as it is now (E17: which products grant the
/// publication), swept day by day, then gathered into weeks or months.
package struct SubscriberMetrics: Sendable {
    private let store: any GatewayStore
    private let catalog: CatalogCache
    private let policy: EntitlementPolicy
    private let clock: any GatewayClock

    /// reports.md E37: at most this many days, counting both ends, judged on the range asked.
    package static let maximumDays: Int64 = 3_660

    package init(store: any GatewayStore, catalog: CatalogCache, policy: EntitlementPolicy, clock: any GatewayClock) {
        self.store = store; self.catalog = catalog; self.policy = policy; self.clock = clock
    }

    /// The series from `from` to `to` (days since the epoch, both included), cut at today: days
    /// after `asOf` are not answered. 400 (`invalid`) for a range backwards or too long, 404
    /// (`notFound`) for an unknown publication.
    package func series(publicationId: String, from: Int64, to: Int64,
                        interval: SeriesInterval) throws(GatewayError) -> SubscriberMetricsReport {
        guard from <= to else { throw .invalid("from must not be after to") }
        guard to - from + 1 <= Self.maximumDays else {
            throw .invalid("the range may span at most \(Self.maximumDays) days, counting both ends")
        }
        let snapshot = catalog.state.snapshot
        guard let publication = snapshot.publication(publicationId) else { throw .notFound("no publication \(publicationId)") }
        let asOf = clock.now()
        let last = min(to, SubscriberSeries.day(of: asOf))
        // E37's subscriptions: auto-renewable and non-renewing products granting the publication.
        let products = snapshot.products.filter {
            ($0.kind == .autoRenewable || $0.kind == .nonRenewing) && $0.grants.contains(publication.id)
        }.map(\.storeRef)
        var days: [SubscriberSeries.Day] = []
        if from <= last {
            let tally = SubscriberSeries.Tally(first: from, last: last, policy: policy) {
                snapshot.product($0.store, storeProductId: $0.storeProductId)?.duration
            }
            days = try stored { () throws(StoreError) in try store.subscriberDays(products: products, tally: tally) }
        }
        return SubscriberMetricsReport(publicationId: publication.id, asOf: asOf,
                                       points: SubscriberSeries.points(days, interval: interval))
    }
}

/// What `SubscriberMetrics` answers: points in order, each named by its first day.
package struct SubscriberMetricsReport: Sendable, Equatable {
    package var publicationId: String
    package var asOf: Instant
    package var points: [SubscriberSeries.Day]
}
