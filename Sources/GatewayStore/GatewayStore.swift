/// Everything the gateway persists, as units of work (the GRDB pattern): `read` runs its body on
/// one consistent snapshot, `write` runs its body as one atomic change, rolled back when the body
/// throws. A backend implements only these two, over its `SQLConnection` (the row access of
/// `ReadTransaction` and `WriteTransaction` is this module's `SQLReadTransaction` and
/// `SQLWriteTransaction`); the rules (E1 merge, E4 ownership, catalog changes, facts versions)
/// live above it, in this module too, written once for every backend.
///
/// Time is always passed in (the store reads no clock), so tests and the engine agree on "now".
public protocol GatewayStore: AnyObject, Sendable {
    /// Runs `body` on one snapshot: every read in it sees the same committed state.
    func read<R>(_ body: (any ReadTransaction) throws(StoreError) -> R) throws(StoreError) -> R
    /// Runs `body` as one transaction: all of its changes commit together, or none when it throws.
    /// Writers are serialized.
    func write<R>(_ body: (any WriteTransaction) throws(StoreError) -> R) throws(StoreError) -> R
    /// Runs `body`, which makes exactly one statement, without opening a transaction around it:
    /// a single statement sees one snapshot by itself on every backend, and the round trips of
    /// BEGIN and COMMIT are saved. `read` by default.
    func readStatement<R>(_ body: (any ReadTransaction) throws(StoreError) -> R) throws(StoreError) -> R
    /// Runs `body` as `write` does, for a unit of work that only derives rows from stored facts
    /// (the reports' rows, decision 96): it records no change and locks only its own marks, so a
    /// backend whose writers can run side by side (PostgreSQL) gives it turns of its own, apart
    /// from the groups of the units that take facts (decision 121). `write` by default.
    func writeDerived<R>(_ body: (any WriteTransaction) throws(StoreError) -> R) throws(StoreError) -> R
}

extension GatewayStore {
    public func readStatement<R>(_ body: (any ReadTransaction) throws(StoreError) -> R) throws(StoreError) -> R {
        try read(body)
    }

    public func writeDerived<R>(_ body: (any WriteTransaction) throws(StoreError) -> R) throws(StoreError) -> R {
        try write(body)
    }
}

/// A backend whose write units of work keep what is derived from the facts they change (E36).
public protocol UpkeptStore: GatewayStore {
    var upkeep: FactsUpkeep { get }
}

extension GatewayStore {
    /// The backend's upkeep; nil for a store that forwards to another (a test's wrapper), whose
    /// backend keeps its own.
    public var factsUpkeep: FactsUpkeep? { (self as? any UpkeptStore)?.upkeep }
}
