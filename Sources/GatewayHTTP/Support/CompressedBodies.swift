import GatewayCore
import Synchronization

/// gzip-coded list bodies by the entity tag of their content, within a byte budget, least
/// recently used evicted first. A tag names exactly the inputs a body is rendered from
/// (`EntityTag`), so a kept body is never stale and nothing needs invalidating: a changed list
/// has a new tag, and its old body ages out.
package final class CompressedBodies: Sendable {
    private let bodies: Mutex<ByteBudgetLRU<String, [UInt8]>>

    package init(budgetBytes: Int) {
        bodies = Mutex(ByteBudgetLRU(budget: budgetBytes))
    }

    package func body(for tag: EntityTag) -> [UInt8]? {
        bodies.withLock { $0.value(for: tag.opaque) }
    }

    package func keep(_ body: [UInt8], for tag: EntityTag) {
        let bytes = MemoryFootprint.array(body) + MemoryFootprint.string(tag.opaque)
        bodies.withLock { _ = $0.insert(body, for: tag.opaque, bytes: bytes) }
    }

    package var stats: CacheStats { bodies.withLock { $0.stats } }
}
