import CCrypto

/// Where random bytes come from. Libraries never pick one themselves: callers pass
/// `SystemRandom` in production and a deterministic source in tests.
public protocol RandomBytesSource: Sendable {
    func randomBytes(count: Int) throws(CryptoError) -> [UInt8]
}

/// libcrypto's CSPRNG (`RAND_bytes`), seeded by the operating system.
public struct SystemRandom: RandomBytesSource {
    public init() {}

    public func randomBytes(count: Int) throws(CryptoError) -> [UInt8] {
        guard count > 0 else { return [] }
        guard count <= Int(Int32.max) else { throw .randomUnavailable }
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) == 1 }
        guard ok else { throw .randomUnavailable }
        return out
    }
}
