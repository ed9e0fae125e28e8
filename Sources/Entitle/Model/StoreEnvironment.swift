/// The environment of a store's transaction: every store has a production and a test one (the
/// App Store's sandbox, Play's license testers, Stripe's test mode). Part of a transaction's
/// identity (E1, E3).
public enum StoreEnvironment: String, Hashable, Sendable, CaseIterable {
    case production, sandbox
}
