import Entitle

/// An account's stored facts and their version, read from one snapshot: a cache keyed by
/// `version` never pairs facts with the version of another state (a higher version is newer facts).
/// The facts' own fields read through (`versioned.transactions`).
@dynamicMemberLookup
public struct VersionedFacts: Sendable, Equatable {
    public var facts: AccountFacts
    public var version: Int64

    public init(facts: AccountFacts, version: Int64) {
        self.facts = facts; self.version = version
    }

    public subscript<Value>(dynamicMember field: KeyPath<AccountFacts, Value>) -> Value { facts[keyPath: field] }
}
