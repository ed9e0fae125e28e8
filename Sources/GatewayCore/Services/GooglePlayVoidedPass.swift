import Foundation
import GatewayStore
import Lifecycle
import Wire

/// E24: a periodic pass over Google's voided purchases (type 1: subscriptions too), so that a
/// refund or chargeback whose notification never came is found. Each pass reads from where the
/// last successful one ended (a service mark; on a first run, Google's 30 days), overlapping by a
/// margin for Google's late entries; facts are deduplicated as usual (E1). On a store several
/// processes share, only the holder of its job lease runs it, like the status poller.
public final class GooglePlayVoidedPass: ThreadBackedService {
    static let interval: Duration = .seconds(3600)
    /// googleplay.md: voided purchases are listed at most 30 days back.
    static let maximumLookBackSeconds: Int64 = 30 * 86_400
    /// Entries Google lists late are read again by the next pass.
    static let overlapSeconds: Int64 = 86_400
    static let markName = "googleplay-voided"

    private let store: any GatewayStore
    private let ingestion: GooglePlayIngestion
    private let clock: any GatewayClock
    private let lease: (any JobLease)?
    public let serviceThread = ServiceThread(name: "googleplay-voided")

    package init(store: any GatewayStore, ingestion: GooglePlayIngestion, clock: any GatewayClock) {
        self.store = store; self.ingestion = ingestion; self.clock = clock
        lease = (store as? any SharedGatewayStore)?.makeJobLease(name: "googleplay-voided")
    }

    /// One pass; false when Google or the store could not be asked (the mark stays).
    @discardableResult
    package func pass() -> Bool {
        let now = clock.now()
        let earliest = now.adding(seconds: -Self.maximumLookBackSeconds)
        let last = (try? store.serviceMark(Self.markName)) ?? nil
        let start = max(earliest, (last ?? earliest).adding(seconds: -Self.overlapSeconds))
        do {
            try ingestion.replayVoided(start: start, end: now)
            try store.setServiceMark(Self.markName, at: now)
            return true
        } catch {
            return false
        }
    }

    public func run(until stop: StopToken) {
        defer { lease?.release() }
        while !stop.isStopRequested {
            if lease?.tryHold() ?? true { pass() }
            if stop.pause(for: Self.interval) { break }
        }
    }
}
