/// Estimates of what values hold on the heap, for caches that count in bytes (`ByteBudgetLRU`).
/// Honest rather than exact: Swift's own layouts (a string of up to 15 UTF-8 bytes is stored
/// inline; a heap string or array has a 32-byte header) and malloc's 16-byte granularity.
package enum MemoryFootprint {
    package static let heapHeaderBytes = 32
    package static let mallocGranularity = 16

    package static func string(_ s: String) -> Int {
        let count = s.utf8.count
        return count <= 15 ? 0 : rounded(heapHeaderBytes + count + 1)
    }

    package static func strings<S: Sequence<String>>(_ strings: S) -> Int {
        strings.reduce(0) { $0 + string($1) }
    }

    /// An array's buffer (its elements inline); what the elements point to is the caller's to add.
    package static func array<T>(_ array: [T]) -> Int {
        array.isEmpty ? 0 : rounded(heapHeaderBytes + array.capacity * MemoryLayout<T>.stride)
    }

    package static func optionalString(_ s: String?) -> Int { s.map(string) ?? 0 }

    private static func rounded(_ bytes: Int) -> Int {
        (bytes + mallocGranularity - 1) / mallocGranularity * mallocGranularity
    }
}
