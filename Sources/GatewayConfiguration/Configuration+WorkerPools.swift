import GatewayCore
import GatewayHTTP
import HTTPServer

extension Configuration {
    /// The pool sizes from `ISSUE_GATEWAY_STORE_*` and `ISSUE_GATEWAY_APPSTORE_*`, and Stripe's.
    package var workerPools: [WorkerPoolID: WorkerPoolSize] {
        [.store: WorkerPoolSize(threads: storeThreads, queueLimit: storeQueue),
         .appStore: WorkerPoolSize(threads: appStoreThreads, queueLimit: appStoreQueue),
         .stripe: WorkerPoolSize(threads: stripe.threads, queueLimit: stripe.queue)]
    }
}
