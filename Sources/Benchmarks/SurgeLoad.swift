// `issue-gateway-bench surge-load <sqlite file | postgresql://…> <accounts> [secret=SEED]
// [idle-hours=MIN-MAX] [long-history=PERCENT]`: the accounts of benchmarks/surge/run.sh, loaded
// straight through the store's units of work on either backend. Each account gets the facts of
// `reports-load` (some histories reaching back up to 14 years), one session whose bearer secret
// the client derives from the account's number, and one iPhone with an APNs token for the pushes.
//
// The secret of account `bench-N` is `surge-SEED-N`; the session stores its SHA-256 in hex, as
// every session secret is stored (`SecretHash`, http-api.md: secrets only as hashes). Its last use
// lies IDLE-HOURS ago (a default of 2–48 h: the first request of the morning moves it, E34).
import Foundation
import Entitle
import GatewayCrypto
import GatewayStore
import PostgresStore
import SQLiteStore
import Wire

func runSurgeLoad() {
    let args = Array(CommandLine.arguments.dropFirst(2))
    guard args.count >= 2, let accounts = Int(args[1]), accounts > 0, let options = SurgeLoadOptions(args.dropFirst(2))
    else {
        FileHandle.standardError.write("""
            usage: issue-gateway-bench surge-load <sqlite file | postgresql://…> <accounts> [secret=SEED] \
            [idle-hours=MIN-MAX] [long-history=PERCENT]

            """.data(using: .utf8)!)
        exit(2)
    }
    do {
        let store: any GatewayStore = PostgresStore.handles(args[0]) ? try PostgresStore(url: args[0]) : try SQLiteStore(path: args[0])
        let products = try store.loadCatalog().products
        let now = Instant(secondsSinceEpoch: Int64(Date().timeIntervalSince1970))
        var facts = ReportsLoad(products: products, now: now)
        facts.longHistoryPercent = options.longHistoryPercent
        var readers = SurgeReaders(options: options, now: now)
        let seconds = try loadInBatches(accounts, into: store) { n, tx throws(StoreError) in
            try facts.account(n, tx)
            try readers.reader(n, tx)
        }
        print(String(format: "surge-load: %d accounts (a session and a device each), %d transactions, %d grants in %.1f s (%.0f accounts/s)",
                     accounts, facts.transactions, facts.grants, seconds, Double(accounts) / seconds))
    } catch {
        FileHandle.standardError.write("surge-load: \(error)\n".data(using: .utf8)!)
        exit(1)
    }
}

struct SurgeLoadOptions {
    var secretSeed = "s"
    var idleHours: ClosedRange<Int64> = 2...48
    var longHistoryPercent = 10

    init?(_ words: ArraySlice<String>) {
        for word in words {
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return nil }
            switch parts[0] {
            case "secret":
                guard !parts[1].isEmpty, parts[1].allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
                secretSeed = parts[1]
            case "idle-hours":
                let bounds = parts[1].split(separator: "-").compactMap { Int64($0) }
                guard bounds.count == 2, bounds[0] >= 0, bounds[0] <= bounds[1] else { return nil }
                idleHours = bounds[0]...bounds[1]
            case "long-history":
                guard let percent = Int(parts[1]), (0...100).contains(percent) else { return nil }
                longHistoryPercent = percent
            default:
                return nil
            }
        }
    }
}

/// The session and the device of each loaded account (E34; the pushes of a publication).
struct SurgeReaders {
    let options: SurgeLoadOptions
    let now: Instant
    var rng = SystemRandomNumberGenerator()

    init(options: SurgeLoadOptions, now: Instant) { self.options = options; self.now = now }

    static func secret(_ n: Int, seed: String) -> String { "surge-\(seed)-\(n)" }

    mutating func reader(_ n: Int, _ tx: any WriteTransaction) throws(StoreError) {
        let id = "bench-\(n)"
        let hash: String
        do { hash = try SecretHash.hex(of: Self.secret(n, seed: options.secretSeed)) } catch { throw .failed }
        let lastUsed = now.adding(milliseconds: -Int64.random(in: options.idleHours, using: &rng) * 3_600_000)
        _ = try tx.insert(Session(id: "sess-\(id)", accountId: id, tokenHash: hash,
                                  device: SessionDevice(id: "device-\(n)", name: "iPhone", platform: "ios"),
                                  createdAt: lastUsed, lastUsedAt: lastUsed))
        try tx.save(Device(accountId: id, apnsToken: String(format: "%064x", n), environment: .production, registeredAt: now))
    }
}
