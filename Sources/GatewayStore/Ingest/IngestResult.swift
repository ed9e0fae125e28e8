import Entitle

/// What an ingest did, for the caches above the store.
public struct IngestResult: Sendable, Equatable {
    /// The owner of every subscription the batch touched, after the batch (nil: unbound).
    public var owners: [SubscriptionKey: String?]
    /// Accounts that lost a subscription to this batch (E4 transfer or appAccountToken); their
    /// entitlements changed too.
    public var previousOwners: Set<String>
    /// Every account whose facts changed, with its facts version after the batch.
    public var factsVersions: [String: Int64]
    /// The batch's notification UUID had been processed already: nothing was stored.
    public var duplicateNotification: Bool

    public init(owners: [SubscriptionKey: String?], previousOwners: Set<String>, factsVersions: [String: Int64] = [:],
                duplicateNotification: Bool = false) {
        self.owners = owners; self.previousOwners = previousOwners; self.factsVersions = factsVersions
        self.duplicateNotification = duplicateNotification
    }

    /// A notification processed already: nothing was stored.
    static let duplicate = IngestResult(owners: [:], previousOwners: [], duplicateNotification: true)
}
