import GatewayCore
import HTTPServer

/// The API's bulkheads: store work and calls to Apple on separate pools, so receipt posts waiting
/// on Apple (up to ~46 s each) never take the threads that serve store reads.
extension WorkerPoolID {
    /// Store writes, and reads that may take long (reports, exports).
    package static let store: WorkerPoolID = "store"
    /// The reader apps' own reads: lists, entitlements, tokens (decision 123). Their work is CPU
    /// on SQLite, so that pool is sized to the cores, not to the writers waiting on a commit.
    package static let storeReads: WorkerPoolID = "storeReads"
    /// Routes that call Apple (verifyReceipt).
    package static let appStore: WorkerPoolID = "appStore"
    /// Routes whose facts may need Stripe's API.
    package static let stripe: WorkerPoolID = "stripe"
    /// Routes that call Google Play (a purchase token, a push).
    package static let googlePlay: WorkerPoolID = "googlePlay"
}

extension Execution {
    package static let store = Execution.pool(.store)
    package static let storeReads = Execution.pool(.storeReads)
    package static let appStore = Execution.pool(.appStore)
    package static let stripe = Execution.pool(.stripe)
    package static let googlePlay = Execution.pool(.googlePlay)
}
