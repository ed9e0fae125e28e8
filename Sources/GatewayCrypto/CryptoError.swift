/// A libcrypto call that should not fail did. These are resource failures (allocation, an
/// unseeded generator), never a property of the input, so callers fail closed on them.
public enum CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    case libcryptoFailure(String)
    case randomUnavailable

    public var description: String {
        switch self {
        case .libcryptoFailure(let call): return "libcrypto call \(call) failed"
        case .randomUnavailable: return "the secure random generator (RAND_bytes) is unavailable"
        }
    }
}
