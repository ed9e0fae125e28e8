// `issue-gateway-bench coldpath <sqlite file | postgresql://…> <accounts> [load]`: the cold path of
// an issue list (http-api.md, the list route after the catalog revision moved: nothing kept holds),
// measured below HTTP. With `load`, first loads `accounts` accounts with realistic multi-year facts
// (`ReportsLoad`, a thousand per unit of work; the catalog must already be imported, as by
// `issue-gateway catalog import catalog`). Then, in random order, each account's facts are read in
// one read unit of work and evaluated against the catalog into its compact issue-list answer (what
// `EntitlementsNow` does on a miss), on `COLDPATH_THREADS` threads (default 1). Prints lists/s and
// the wall-clock share of the read and of the evaluation.
import Entitle
import Foundation
import GatewayCore
import GatewayStore
import PostgresStore
import SQLiteStore
import Synchronization
import Wire

func runColdPathBenchmark() {
    let args = Array(CommandLine.arguments.dropFirst(2))
    guard args.count >= 2, let accounts = Int(args[1]), accounts > 0, args.count == 2 || args[2] == "load" else {
        FileHandle.standardError.write("usage: issue-gateway-bench coldpath <sqlite file | postgresql://…> <accounts> [load]\n"
            .data(using: .utf8)!)
        exit(2)
    }
    let environment = ProcessInfo.processInfo.environment
    let threads = max(1, Int(environment["COLDPATH_THREADS"] ?? "") ?? 1)
    // `COLDPATH_FACTS=queries`: the facts as the release before read them, four queries in a read
    // unit of work, for a profile of both in one build.
    let fourQueries = environment["COLDPATH_FACTS"] == "queries"
    do {
        let store: any GatewayStore = PostgresStore.handles(args[0]) ? try PostgresStore(url: args[0]) : try SQLiteStore(path: args[0])
        let now = Instant(secondsSinceEpoch: Int64(Date().timeIntervalSince1970))
        if args.count == 3 { try loadColdPathAccounts(accounts, into: store, now: now) }
        let stored = try store.storedCatalog()
        let state = CatalogState(revision: stored.revision, catalog: stored.catalog)
        let evaluator = EntitlementEvaluator(policy: .default)
        let order = (0..<accounts).shuffled()
        let next = Atomic<Int>(0)
        let totals = Mutex<(read: Double, evaluate: Double, transactions: Int, answerBytes: Int, failures: Int)>((0, 0, 0, 0, 0))
        let wall = measureSeconds {
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                var read = 0.0, evaluate = 0.0, transactions = 0, answerBytes = 0, failures = 0
                while true {
                    let n = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard n < order.count else { break }
                    let start = DispatchTime.now().uptimeNanoseconds
                    let id = "bench-\(order[n])"
                    guard let facts = try? (fourQueries ? queriedFacts(id, store) : store.accountFacts(id)) else {
                        failures += 1; continue
                    }
                    let fetched = DispatchTime.now().uptimeNanoseconds
                    let answer = evaluator.evaluate(facts.facts, state, now).issueListAnswer
                    let done = DispatchTime.now().uptimeNanoseconds
                    read += Double(fetched - start) / 1e9; evaluate += Double(done - fetched) / 1e9
                    transactions += facts.facts.transactions.count
                    answerBytes += answer.heapBytes
                }
                totals.withLock { t in
                    t.read += read; t.evaluate += evaluate; t.transactions += transactions
                    t.answerBytes += answerBytes; t.failures += failures
                }
            }
        }
        let t = totals.withLock { $0 }
        let perAccount = { (seconds: Double) in seconds * 1e6 / Double(accounts) }
        print(String(format: "coldpath: %d accounts (%.1f transactions each), %d thread(s), facts by \(fourQueries ? "four queries" : "one statement"): %.0f lists/s; per account %.1f µs reading facts, %.1f µs evaluating (summed over threads); %d failures; answers %.0f bytes each",
                     accounts, Double(t.transactions) / Double(accounts), threads, Double(accounts) / wall,
                     perAccount(t.read), perAccount(t.evaluate), t.failures, Double(t.answerBytes) / Double(accounts)))
        if t.failures > 0 { exit(1) }
    } catch {
        FileHandle.standardError.write("coldpath: \(error)\n".data(using: .utf8)!)
        exit(1)
    }
}

/// `ReportsLoad`'s accounts `bench-0` … through the store's units of work, a thousand per unit.
private func loadColdPathAccounts(_ accounts: Int, into store: any GatewayStore, now: Instant) throws {
    var load = ReportsLoad(products: try store.loadCatalog().products, now: now)
    let seconds = try loadInBatches(accounts, into: store) { n, tx throws(StoreError) in try load.account(n, tx) }
    print(String(format: "coldpath: loaded %d accounts, %d transactions in %.1f s", accounts, load.transactions, seconds))
}

/// The facts as four queries in one read unit of work (transactions, renewal infos, grants, version).
private func queriedFacts(_ accountId: String, _ store: any GatewayStore) throws(StoreError) -> VersionedFacts {
    try store.read { tx throws(StoreError) in
        VersionedFacts(facts: try tx.queriedFacts(ofAccount: accountId), version: try tx.factsVersion(ofAccount: accountId))
    }
}
