import Synchronization

/// The bytes all spooled bodies together may take on disk (`HTTPServerConfiguration.maxSpooledBytes`):
/// a body reserves its announced length (or, chunked, each piece) before a byte is written, and
/// gives it back when its file is closed, so uploads cannot fill the disk whatever they announce.
public final class SpoolBudget: Sendable {
    public let limit: Int
    private let used = Atomic<Int>(0)

    public init(limit: Int) { self.limit = limit }

    /// Bytes reserved now, all bodies together.
    public var reserved: Int { used.load(ordering: .relaxed) }

    /// Takes `bytes` when they fit under the limit with what others hold; false leaves it unchanged.
    func reserve(_ bytes: Int) -> Bool {
        guard bytes > 0 else { return true }
        var current = used.load(ordering: .relaxed)
        while true {
            guard bytes <= limit - current else { return false }
            let (exchanged, original) = used.compareExchange(expected: current, desired: current + bytes,
                                                             ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        used.wrappingSubtract(bytes, ordering: .relaxed)
    }
}
