import GatewayCore
import HTTPServer

/// The API's bulkheads: store work and calls to Apple on separate pools, so receipt posts waiting
/// on Apple (up to ~46 s each) never take the threads that serve store reads.
extension WorkerPoolID {
    /// Store reads and writes.
    package static let store: WorkerPoolID = "store"
    /// Routes that call Apple (verifyReceipt).
    package static let appStore: WorkerPoolID = "appStore"
    /// Routes whose facts may need Stripe's API.
    package static let stripe: WorkerPoolID = "stripe"
    /// Routes that call Google Play (a purchase token, a push).
    package static let googlePlay: WorkerPoolID = "googlePlay"
}

extension Execution {
    package static let store = Execution.pool(.store)
    package static let appStore = Execution.pool(.appStore)
    package static let stripe = Execution.pool(.stripe)
    package static let googlePlay = Execution.pool(.googlePlay)
}
