import Entitle
import Synchronization

/// What is derived from an account's facts and kept in step with them inside the unit of work
/// that changes them: every writer of facts bumps the account's facts version
/// (`bumpFactsVersion(ofAccount:)`, after it wrote them), and the installed upkeep runs there.
public protocol FactsUpkeeping: Sendable {
    func factsChanged(ofAccount accountId: String, in tx: any WriteTransaction) throws(StoreError)
}

/// A backend's installed upkeep (E36's `CirculationUpkeep` under the default policy until the
/// configuration installs its own).
public final class FactsUpkeep: Sendable {
    private let current: Mutex<any FactsUpkeeping>

    public init(_ upkeep: any FactsUpkeeping = CirculationUpkeep(policy: .default)) { current = Mutex(upkeep) }

    public var installed: any FactsUpkeeping { current.withLock { $0 } }

    public func install(_ upkeep: any FactsUpkeeping) { current.withLock { $0 = upkeep } }
}
