import CSystem

/// How many malloc arenas the process's threads share. glibc gives a thread that finds the
/// arenas busy an arena of its own, up to eight per core; memory freed in one arena serves only
/// that arena, so a server with many threads (event loops, the store pool, outbound pools)
/// keeps growing as each arena holds its own free pages. A few arenas, shared, keep the
/// footprint flat under a steady load (docs/benchmarks/soak.md, decision 122).
public enum MallocArenas {
    /// Caps the arenas at `count` (0: glibc's own limit). Call before the threads start: arenas
    /// already created stay.
    @discardableResult
    public static func limit(_ count: Int) -> Bool {
        csystem_limit_malloc_arenas(Int32(clamping: count)) == 1
    }
}
