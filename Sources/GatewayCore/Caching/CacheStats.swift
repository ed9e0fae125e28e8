import Metrics
import Synchronization

/// One cache's figures at a scrape: what it did since start and what it holds.
package struct CacheStats: Sendable, Equatable {
    package var counts: CacheCounts
    package var bytes: Int
    package var entries: Int
    package var budget: Int
}

extension ByteBudgetLRU {
    package var stats: CacheStats { CacheStats(counts: counts, bytes: bytes, entries: count, budget: budget) }
}

extension Metrics {
    /// `issue_gateway_cache_*` families, one series per cache (label `cache`), read at scrape
    /// time from each cache's own figures.
    package func addCaches(_ caches: [(name: String, stats: @Sendable () -> CacheStats)]) {
        addCollector { out in
            let all = caches.map { ($0.name, $0.stats()) }
            let families: [(String, String, String, (CacheStats) -> Int)] = [
                ("issue_gateway_cache_hits_total", "counter", "Cache lookups answered from memory", { $0.counts.hits }),
                ("issue_gateway_cache_misses_total", "counter", "Cache lookups that found nothing valid", { $0.counts.misses }),
                ("issue_gateway_cache_evictions_total", "counter", "Entries evicted to stay within the memory budget",
                 { $0.counts.evictions }),
                ("issue_gateway_cache_rejected_total", "counter", "Entries larger than the whole budget, not kept",
                 { $0.counts.rejected }),
                ("issue_gateway_cache_bytes", "gauge", "Estimated bytes held", { $0.bytes }),
                ("issue_gateway_cache_entries", "gauge", "Entries held", { $0.entries }),
                ("issue_gateway_cache_budget_bytes", "gauge", "Share of ISSUE_GATEWAY_CACHE_MEMORY", { $0.budget }),
            ]
            for (family, type, help, value) in families {
                out.family(family, type: type, help: help)
                for (name, stats) in all { out.sample(family, labels: [("cache", name)], value(stats)) }
            }
        }
    }
}
