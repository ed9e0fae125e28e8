import Entitle
import Synchronization

/// What is derived from an account's facts and kept in step with them inside the unit of work
/// that changes them: every writer of facts bumps the account's facts version
/// (`bumpFactsVersion(ofAccount:)`, after it wrote them), and the installed upkeeps run there.
public protocol FactsUpkeeping: Sendable {
    func factsChanged(ofAccount accountId: String, in tx: any WriteTransaction) throws(StoreError)
}

/// A backend's installed upkeeps, one per type (E36's `CirculationUpkeep` under the default
/// policy until the configuration installs its own; a report's own table adds its upkeep here).
public final class FactsUpkeep: Sendable {
    private let current: Mutex<[any FactsUpkeeping]>

    public init(_ upkeeps: [any FactsUpkeeping] = [CirculationUpkeep(policy: .default)]) { current = Mutex(upkeeps) }

    /// Every installed upkeep, run in install order, as one.
    public var installed: any FactsUpkeeping { Upkeeps(all: current.withLock { $0 }) }

    /// The installed upkeep of type `T`, if any.
    public func upkeep<T: FactsUpkeeping>(_ type: T.Type) -> T? { current.withLock { $0.lazy.compactMap { $0 as? T }.first } }

    /// Installs exactly `upkeeps` (none: the facts' writes derive nothing, as a bulk load may want).
    public func replaceAll(with upkeeps: [any FactsUpkeeping]) { current.withLock { $0 = upkeeps } }

    /// Installs `upkeep` in place of an installed one of its type, or after the others.
    public func install(_ upkeep: any FactsUpkeeping) {
        current.withLock { all in
            if let i = all.firstIndex(where: { type(of: $0) == type(of: upkeep) }) { all[i] = upkeep } else { all.append(upkeep) }
        }
    }

    private struct Upkeeps: FactsUpkeeping {
        let all: [any FactsUpkeeping]

        func factsChanged(ofAccount accountId: String, in tx: any WriteTransaction) throws(StoreError) {
            for upkeep in all { try upkeep.factsChanged(ofAccount: accountId, in: tx) }
        }
    }
}
