import HTTPServer

/// The API's bulkheads: store work and calls to Apple on separate pools, so receipt posts waiting
/// on Apple (up to ~46 s each) never take the threads that serve store reads (issue #9).
extension WorkerPoolID {
    /// Store reads and writes.
    static let store: WorkerPoolID = "store"
    /// Routes that call Apple (verifyReceipt).
    static let appStore: WorkerPoolID = "appStore"
}

extension Execution {
    static let store = Execution.pool(.store)
    static let appStore = Execution.pool(.appStore)
}

extension Configuration {
    /// The pool sizes from `ISSUE_GATEWAY_STORE_*` and `ISSUE_GATEWAY_APPSTORE_*`.
    var workerPools: [WorkerPoolID: WorkerPoolSize] {
        [.store: WorkerPoolSize(threads: storeThreads, queueLimit: storeQueue),
         .appStore: WorkerPoolSize(threads: appStoreThreads, queueLimit: appStoreQueue)]
    }
}
