import Synchronization

/// A registry of counters, gauges and histograms rendered for `GET /metrics`.
///
/// Others add their own: `metrics.counter("issue_gateway_tokens_issued_total", help: "…")` once at
/// start-up, then `counter.increment()` on the hot path (one atomic add). Asking twice for the same
/// name and labels returns the same instrument. Collectors add families computed at scrape time.
public final class Metrics: Sendable {
    private struct Series {
        var labels: [(String, String)]
        var instrument: Instrument
    }

    private enum Instrument {
        case counter(Counter)
        case gauge(Gauge)
        case histogram(Histogram)
    }

    private struct Family {
        var type: String
        var help: String
        var series: [String: Series] = [:]
        var order: [String] = []
    }

    private struct State {
        var families: [String: Family] = [:]
        var order: [String] = []
        var collectors: [@Sendable (inout PrometheusText) -> Void] = []
    }

    private let state = Mutex(State())

    public init() {}

    public func counter(_ name: String, help: String, labels: [(String, String)] = []) -> Counter {
        let instrument = register(name, type: "counter", help: help, labels: labels) { .counter(Counter()) }
        guard case .counter(let counter) = instrument else { preconditionFailure("\(name) is not a counter") }
        return counter
    }

    public func gauge(_ name: String, help: String, labels: [(String, String)] = []) -> Gauge {
        let instrument = register(name, type: "gauge", help: help, labels: labels) { .gauge(Gauge()) }
        guard case .gauge(let gauge) = instrument else { preconditionFailure("\(name) is not a gauge") }
        return gauge
    }

    public func histogram(_ name: String, help: String, labels: [(String, String)] = [],
                   bounds: [Double] = Histogram.latencyBounds) -> Histogram {
        let instrument = register(name, type: "histogram", help: help, labels: labels) {
            .histogram(Histogram(bounds: bounds))
        }
        guard case .histogram(let histogram) = instrument else { preconditionFailure("\(name) is not a histogram") }
        return histogram
    }

    /// Adds families computed at scrape time (each writes its own HELP/TYPE lines).
    public func addCollector(_ collect: @escaping @Sendable (inout PrometheusText) -> Void) {
        state.withLock { $0.collectors.append(collect) }
    }

    /// The exposition text: registered families in registration order, then the collectors'.
    public func render() -> String {
        let (families, collectors) = state.withLock { state in
            (state.order.map { ($0, state.families[$0]!) }, state.collectors)
        }
        var out = PrometheusText()
        for (name, family) in families {
            out.family(name, type: family.type, help: family.help)
            for key in family.order {
                let series = family.series[key]!
                switch series.instrument {
                case .counter(let counter): out.sample(name, labels: series.labels, counter.value)
                case .gauge(let gauge): out.sample(name, labels: series.labels, gauge.value)
                case .histogram(let histogram):
                    let snapshot = histogram.snapshot()
                    out.histogram(name, labels: series.labels, bounds: histogram.bounds,
                                  counts: snapshot.counts, sum: snapshot.sum)
                }
            }
        }
        for collect in collectors { collect(&out) }
        return out.text
    }

    private func register(_ name: String, type: String, help: String, labels: [(String, String)],
                          make: () -> Instrument) -> Instrument {
        let key = labels.map { "\($0.0)=\($0.1)" }.joined(separator: "\u{1}")
        return state.withLock { state in
            if state.families[name] == nil {
                state.families[name] = Family(type: type, help: help)
                state.order.append(name)
            }
            precondition(state.families[name]!.type == type, "\(name) registered as \(state.families[name]!.type)")
            if let existing = state.families[name]!.series[key] { return existing.instrument }
            let instrument = make()
            state.families[name]!.series[key] = Series(labels: labels, instrument: instrument)
            state.families[name]!.order.append(key)
            return instrument
        }
    }
}

/// A monotonically increasing count.
public final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    public func increment(by amount: Int = 1) { count.wrappingAdd(amount, ordering: .relaxed) }
    public var value: Int { count.load(ordering: .relaxed) }
}

/// A value that goes up and down.
public final class Gauge: Sendable {
    private let current = Atomic<Int>(0)
    public func set(_ value: Int) { current.store(value, ordering: .relaxed) }
    public func increment(by amount: Int = 1) { current.wrappingAdd(amount, ordering: .relaxed) }
    public func decrement(by amount: Int = 1) { current.wrappingSubtract(amount, ordering: .relaxed) }
    public var value: Int { current.load(ordering: .relaxed) }
}

/// Observations counted into fixed buckets (upper bounds, seconds for latencies).
public final class Histogram: Sendable {
    /// 100 µs to 10 s: the edge check is expected well under a millisecond, Apple calls take seconds.
    public static let latencyBounds: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                          0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    public struct Snapshot: Sendable {
        public var counts: [Int]
        public var sum: Double

        public init(counts: [Int], sum: Double) { self.counts = counts; self.sum = sum }
    }

    public let bounds: [Double]
    private let state: Mutex<Snapshot>

    public init(bounds: [Double]) {
        self.bounds = bounds
        state = Mutex(Snapshot(counts: Array(repeating: 0, count: bounds.count + 1), sum: 0))
    }

    public func observe(_ value: Double) {
        let index = Histogram.bucketIndex(value, bounds)
        state.withLock { $0.counts[index] += 1; $0.sum += value }
    }

    /// Counts per bucket (not cumulative), the last one past every bound.
    public func snapshot() -> Snapshot { state.withLock { $0 } }

    public static func bucketIndex(_ value: Double, _ bounds: [Double]) -> Int {
        bounds.firstIndex { value <= $0 } ?? bounds.count
    }
}
