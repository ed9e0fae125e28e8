import GatewayCore
import GatewayHTTP
import HTTPServer

extension Configuration {
    /// The pool sizes from `ISSUE_GATEWAY_STORE_*`, `ISSUE_GATEWAY_STORE_READ_*`,
    /// `ISSUE_GATEWAY_APPSTORE_*`, Stripe's and `ISSUE_GATEWAY_GOOGLE_THREADS`/`_QUEUE`.
    package var workerPools: [WorkerPoolID: WorkerPoolSize] {
        [.store: WorkerPoolSize(threads: storeThreads, queueLimit: storeQueue),
         .storeReads: WorkerPoolSize(threads: storeReadPoolThreads, queueLimit: storeReadQueue),
         .appStore: WorkerPoolSize(threads: appStoreThreads, queueLimit: appStoreQueue),
         .stripe: WorkerPoolSize(threads: stripe.threads, queueLimit: stripe.queue),
         .googlePlay: WorkerPoolSize(threads: googlePlay.threads, queueLimit: googlePlay.queue)]
    }
}
