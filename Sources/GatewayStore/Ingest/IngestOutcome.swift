/// What asking to store a batch came to: stored, or refused by an account's ownership. A refusal
/// is an answer of the domain, not a failure of the storage, so it is a value the caller must
/// look at, never a `StoreError`.
public enum IngestOutcome: Sendable, Equatable {
    /// The batch was stored (or, for a notification seen before, recognised as a duplicate).
    case stored(IngestResult)
    /// E4 under the `keep` policy: a subscription or purchase of the batch belongs to this other
    /// account. Nothing was written.
    case refused(ownedBy: String)
    /// The batch names a requesting account that does not exist. Nothing was written.
    case unknownAccount
}
