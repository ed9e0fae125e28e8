import Metrics
import Synchronization

/// Per-loop request counters and latency histograms for `/metrics`: each loop writes its own (an
/// uncontended lock), the scrape merges them. Routes are labelled by pattern, not by path, so the
/// label set stays bounded; unmatched paths share the route label `unmatched`, and methods outside
/// RFC 9110's registry share the method label `other` (a client that invents methods must not
/// grow `/metrics` without bound).
final class RequestStats: Sendable {
    struct CountKey: Hashable, Sendable { var method: String; var route: String; var status: Int }
    struct RouteKey: Hashable, Sendable { var method: String; var route: String }

    struct Snapshot: Sendable {
        var counts: [CountKey: Int] = [:]
        var latencies: [RouteKey: Histogram.Snapshot] = [:]
    }

    static let unmatchedRoute = "unmatched"
    static let otherMethod = "other"
    /// RFC 9110 §9 and RFC 5789 (PATCH): the only methods that get a label of their own.
    static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"]

    static func methodLabel(_ method: String) -> String { knownMethods.contains(method) ? method : otherMethod }
    private let state = Mutex(Snapshot())
    private let bounds: [Double]

    init(bounds: [Double] = Histogram.latencyBounds) { self.bounds = bounds }

    func record(method: String, route: String, status: Int, seconds: Double) {
        let method = Self.methodLabel(method)
        let index = Histogram.bucketIndex(seconds, bounds)
        let bucketCount = bounds.count + 1
        state.withLock { state in
            state.counts[CountKey(method: method, route: route, status: status), default: 0] += 1
            let key = RouteKey(method: method, route: route)
            state.latencies[key, default: Histogram.Snapshot(counts: Array(repeating: 0, count: bucketCount), sum: 0)]
                .counts[index] += 1
            state.latencies[key]!.sum += seconds
        }
    }

    func snapshot() -> Snapshot { state.withLock { $0 } }

    /// Writes the merged families of several loops' stats.
    static func write(_ stats: [RequestStats], openConnections: Int, bufferedBytes: Int, into out: inout PrometheusText) {
        var merged = Snapshot()
        for snapshot in stats.map({ $0.snapshot() }) {
            merged.counts.merge(snapshot.counts, uniquingKeysWith: +)
            merged.latencies.merge(snapshot.latencies) { a, b in
                Histogram.Snapshot(counts: zip(a.counts, b.counts).map(+), sum: a.sum + b.sum)
            }
        }
        let bounds = stats.first?.bounds ?? Histogram.latencyBounds
        out.family("http_requests_total", type: "counter", help: "HTTP requests answered, by method, route and status.")
        for (key, count) in merged.counts.sorted(by: { ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status) }) {
            out.sample("http_requests_total", labels: [("method", key.method), ("route", key.route), ("status", String(key.status))], count)
        }
        out.family("http_request_duration_seconds", type: "histogram",
                   help: "Time from a request's last byte to its response being queued, by method and route.")
        for (key, histogram) in merged.latencies.sorted(by: { ($0.key.route, $0.key.method) < ($1.key.route, $1.key.method) }) {
            out.histogram("http_request_duration_seconds", labels: [("method", key.method), ("route", key.route)],
                          bounds: bounds, counts: histogram.counts, sum: histogram.sum)
        }
        out.family("http_open_connections", type: "gauge", help: "Client connections currently open.")
        out.sample("http_open_connections", openConnections)
        out.family("http_buffered_bytes", type: "gauge",
                   help: "Bytes held in request bodies, unparsed input and unsent responses, all connections together.")
        out.sample("http_buffered_bytes", bufferedBytes)
    }
}
