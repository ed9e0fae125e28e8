/// Bounds the parser enforces before anything else: every JSON text it sees may be hostile.
public struct JSONLimits: Equatable, Sendable {
    /// Longest accepted text, in bytes.
    public var maxBytes: Int
    /// Deepest accepted nesting of arrays and objects (the top-level container is depth 1).
    public var maxDepth: Int

    public init(maxBytes: Int, maxDepth: Int) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
    }

    /// Request bodies and token segments: 1 MiB, 64 levels.
    public static let standard = JSONLimits(maxBytes: 1 << 20, maxDepth: 64)
}
