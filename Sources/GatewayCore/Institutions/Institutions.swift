import Entitle
import GatewayStore
import IssueCatalog
import Synchronization
import Wire

/// E30's institutions: the admin's changes, refused when a network is not a CIDR range or overlaps
/// another of the same institution (another institution's may overlap), and which institution
/// covers a client address (the one created first where several do).
/// Institutions are few and change rarely, so their parsed ranges are kept in memory and read
/// again from the store after a local change or `refreshSeconds` (another process's change).
package final class Institutions: Sendable {
    /// How stale another process's change to the institutions may be seen here.
    package static let refreshSeconds: Int64 = 5

    private struct Loaded: Sendable {
        var networks = CoveredNetworks([])
        var loadedAt: Instant?
    }

    private let store: any GatewayStore
    private let clock: any GatewayClock
    private let loaded = Mutex(Loaded())

    package init(store: any GatewayStore, clock: any GatewayClock) {
        self.store = store; self.clock = clock
    }

    /// Every institution, the first created first.
    package func all() throws(GatewayError) -> [Institution] {
        try stored { () throws(StoreError) in try store.institutions() }
    }

    package func institution(_ institutionId: String) throws(GatewayError) -> Institution? {
        try stored { () throws(StoreError) in try store.institution(id: institutionId) }
    }

    /// The institution that covers `address` now (the first created where several do), or nil.
    package func covering(_ address: [UInt8]) throws(GatewayError) -> Institution? {
        try networks().covering(address)
    }

    /// The institution that covers `address` as known in memory, without reading the store: nil
    /// when what is kept is too old to answer (the caller then asks `covering`, off the event loop).
    /// No address (no socket, or a header not believed) is covered by none.
    package func coveringFromMemory(_ address: [UInt8]?) -> Coverage? {
        guard let address else { return .uncovered }
        let now = clock.now()
        return loaded.withLock { state -> Coverage? in
            guard let at = state.loadedAt, Self.isFresh(at, now) else { return nil }
            return Coverage(state.networks.covering(address))
        }
    }

    /// Saves `institution` unless one of its networks is invalid or overlaps another of its own:
    /// then `invalidNetwork` naming the entry. The accounts it was given to get `grantChanged` when
    /// it now gives other publications or another interval. `replacing`: an institution deleted
    /// since the caller read it is `notFound` and nothing is written.
    package func save(_ institution: Institution, replacing: Bool = false) throws(GatewayError) {
        var ranges: [(String, NetworkRange)] = []
        for entry in institution.networks {
            do { ranges.append((entry, try NetworkRange(parsing: entry))) } catch {
                throw .invalidNetwork(entry: entry, reason: error.reason)
            }
        }
        for (i, (entry, range)) in ranges.enumerated() {
            if let (other, _) = ranges[..<i].first(where: { $0.1.overlaps(range) }) {
                throw .invalidNetwork(entry: entry, reason: "overlaps \(other) of the same institution")
            }
        }
        // E30: another institution's ranges may overlap these (libraries share networks): where
        // several cover an address, the one created first serves it (`CoveredNetworks`).
        let saved = try stored { () throws(StoreError) in
            try store.saveInstitution(institution, at: clock.now(), replacing: replacing)
        }
        guard saved else { throw .notFound("no institution \(institution.institutionId)") }
        forget()
    }

    /// False when there was no such institution. The accounts it was given to get `grantRevoked`.
    package func delete(_ institutionId: String) throws(GatewayError) -> Bool {
        let deleted = try stored { () throws(StoreError) in try store.deleteInstitution(id: institutionId, at: clock.now()) }
        forget()
        return deleted
    }

    /// E30: what an institution gives, as the rules take it: a grant over its interval for its
    /// publications, whose reason is `institution` (`GrantOrigin.institution`).
    package static func grant(_ institution: Institution) -> Grant {
        Grant(grantId: institution.grantId, accountId: subject(institution),
              source: "institution", externalId: institution.institutionId, publications: institution.publications,
              start: institution.start, end: institution.end, createdAt: institution.createdAt, origin: .institution)
    }

    /// The `sub` of an institution reader's tokens (E30).
    package static func subject(_ institution: Institution) -> String { "institution:" + institution.institutionId }

    private static func isFresh(_ loadedAt: Instant, _ now: Instant) -> Bool {
        loadedAt <= now && now.millisecondsSinceEpoch - loadedAt.millisecondsSinceEpoch < refreshSeconds * 1000
    }

    private func forget() { loaded.withLock { $0.loadedAt = nil } }

    private func networks() throws(GatewayError) -> CoveredNetworks {
        let now = clock.now()
        if let fresh = loaded.withLock({ state -> CoveredNetworks? in
            guard let at = state.loadedAt, Self.isFresh(at, now) else { return nil }
            return state.networks
        }) { return fresh }
        let networks = CoveredNetworks(try stored { () throws(StoreError) in try store.institutions() })
        loaded.withLock { $0 = Loaded(networks: networks, loadedAt: now) }
        return networks
    }
}

/// Whether an institution covers a client's address (E30), as a cached answer tells it.
package enum Coverage: Sendable {
    case uncovered
    case covered(Institution)

    package init(_ institution: Institution?) { self = institution.map(Coverage.covered) ?? .uncovered }

    package var institution: Institution? {
        if case .covered(let institution) = self { return institution }
        return nil
    }
}

/// E30: institutions with their ranges parsed, and which one covers an address. Ranges are kept
/// sorted by their first address, per family, so a lookup is a binary search whatever the number
/// of institutions (a token request pays it). Ranges of different institutions may overlap (E30):
/// of the candidates at or before the address, the earliest created that holds it wins.
package struct CoveredNetworks: Sendable {
    private struct Span: Sendable {
        let bounds: ClosedRange<UInt128>
        /// The institution's position in creation order.
        let order: Int
    }

    private let institutions: [Institution]
    private let v4: [Span]
    private let v6: [Span]
    /// The widest span of each family: how far before an address a holding span may begin.
    private let widest4: UInt128
    private let widest6: UInt128

    /// `institutions` the first created first (as the store lists them).
    package init(_ institutions: [Institution]) {
        self.institutions = institutions
        var v4: [Span] = [], v6: [Span] = []
        for (order, institution) in institutions.enumerated() {
            for range in institution.networks.compactMap({ try? NetworkRange(parsing: $0) }) {
                let span = Span(bounds: range.bounds, order: order)
                if range.network.count == 4 { v4.append(span) } else { v6.append(span) }
            }
        }
        self.v4 = v4.sorted { $0.bounds.lowerBound < $1.bounds.lowerBound }
        self.v6 = v6.sorted { $0.bounds.lowerBound < $1.bounds.lowerBound }
        widest4 = v4.map { $0.bounds.upperBound - $0.bounds.lowerBound }.max() ?? 0
        widest6 = v6.map { $0.bounds.upperBound - $0.bounds.lowerBound }.max() ?? 0
    }

    package func covering(_ address: [UInt8]) -> Institution? {
        let spans = address.count == 4 ? v4 : v6
        let widest = address.count == 4 ? widest4 : widest6
        let number = NetworkRange.number(address)
        // The spans beginning at or before the address, latest first, back to the widest's reach.
        var low = 0, high = spans.count
        while low < high {
            let middle = (low + high) / 2
            if spans[middle].bounds.lowerBound <= number { low = middle + 1 } else { high = middle }
        }
        var best: Int?
        var index = low - 1
        while index >= 0, number - spans[index].bounds.lowerBound <= widest {
            if spans[index].bounds.contains(number), best.map({ spans[index].order < $0 }) ?? true { best = spans[index].order }
            index -= 1
        }
        return best.map { institutions[$0] }
    }
}
