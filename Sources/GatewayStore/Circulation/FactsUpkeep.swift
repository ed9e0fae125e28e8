import Entitle
import Synchronization

/// What is derived from an account's facts: the reports' rows (E36's circulation evidence,
/// E37's subscription intervals). Every writer of facts bumps the account's facts version
/// (`bumpFactsVersion(ofAccount:)`), which marks the account due in the same unit of work; the
/// installed upkeeps derive the marked accounts' rows after it commits (`GatewayStore.
/// deriveDueReportRows`): computed on a snapshot, then written in a unit of work of their own for
/// the accounts whose facts and catalog have not moved since (decision 130). Every report drains
/// the marks first (decision 96).
public protocol FactsUpkeeping: Sendable {
    /// The rows of each of `accounts` computed from its facts, with the catalog as `tx` sees it;
    /// writes nothing.
    func prepare(_ accounts: [StoredAccountFacts], reading tx: any ReadTransaction) throws(StoreError) -> any PreparedUpkeep
}

/// Rows an upkeep computed for a batch of accounts, to be written in a unit of work.
public protocol PreparedUpkeep: Sendable {
    /// Makes the rows of those accounts of the batch in `accountIds` (every one when nil) the rows
    /// computed for them.
    func write(only accountIds: Set<String>?, in tx: any WriteTransaction) throws(StoreError)
}

extension FactsUpkeeping {
    /// Makes the rows of each of `accounts` those of its facts as `tx` sees them.
    public func derive(_ accounts: [StoredAccountFacts], in tx: any WriteTransaction) throws(StoreError) {
        try prepare(accounts, reading: tx).write(only: nil, in: tx)
    }
}

/// One account's facts as a unit of work sees them, read once for every upkeep.
public struct StoredAccountFacts: Sendable {
    public var accountId: String
    /// False for an account deleted (E35) or never stored: a reader no more (reports.md).
    public var isReader: Bool
    public var facts: AccountFacts

    public init(accountId: String, isReader: Bool, facts: AccountFacts) {
        self.accountId = accountId; self.isReader = isReader; self.facts = facts
    }
}

extension ReadTransaction {
    /// The account's transactions, renewal infos and grants, each its own query.
    public func queriedFacts(ofAccount accountId: String) throws(StoreError) -> AccountFacts {
        AccountFacts(transactions: try transactions(ofAccount: accountId), renewals: try renewalInfos(ofAccount: accountId),
                     grants: try grants(ofAccount: accountId))
    }

    /// The account's facts, and whether it is a reader.
    public func storedFacts(ofAccount accountId: String) throws(StoreError) -> StoredAccountFacts {
        // `account(id:)` finds no deleted account (E35).
        StoredAccountFacts(accountId: accountId, isReader: try account(id: accountId) != nil,
                           facts: try queriedFacts(ofAccount: accountId))
    }
}

/// A backend's installed upkeeps, one per type (E36's `CirculationUpkeep` under the default
/// policy until the configuration installs its own, and E37's `SubscriberIntervalsUpkeep`).
public final class FactsUpkeep: Sendable {
    private let current: Mutex<[any FactsUpkeeping]>

    public init(_ upkeeps: [any FactsUpkeeping] = [CirculationUpkeep(policy: .default), SubscriberIntervalsUpkeep()]) {
        current = Mutex(upkeeps)
    }

    /// Every installed upkeep, run in install order, as one.
    public var installed: any FactsUpkeeping { Upkeeps(all: current.withLock { $0 }) }

    /// The installed upkeep of type `T`, if any.
    public func upkeep<T: FactsUpkeeping>(_ type: T.Type) -> T? { current.withLock { $0.lazy.compactMap { $0 as? T }.first } }

    /// Installs exactly `upkeeps`.
    public func replaceAll(with upkeeps: [any FactsUpkeeping]) { current.withLock { $0 = upkeeps } }

    /// Installs `upkeep` in place of an installed one of its type, or after the others.
    public func install(_ upkeep: any FactsUpkeeping) {
        current.withLock { all in
            if let i = all.firstIndex(where: { type(of: $0) == type(of: upkeep) }) { all[i] = upkeep } else { all.append(upkeep) }
        }
    }

    private struct Upkeeps: FactsUpkeeping {
        let all: [any FactsUpkeeping]

        func prepare(_ accounts: [StoredAccountFacts], reading tx: any ReadTransaction) throws(StoreError) -> any PreparedUpkeep {
            var prepared: [any PreparedUpkeep] = []
            for upkeep in all { prepared.append(try upkeep.prepare(accounts, reading: tx)) }
            return Prepared(all: prepared)
        }
    }

    private struct Prepared: PreparedUpkeep {
        let all: [any PreparedUpkeep]

        func write(only accountIds: Set<String>?, in tx: any WriteTransaction) throws(StoreError) {
            for prepared in all { try prepared.write(only: accountIds, in: tx) }
        }
    }
}
