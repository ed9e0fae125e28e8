import Synchronization
import Wire

/// Headers parsed before, by their exact bytes: Apple signs months of payloads under one header
/// (its algorithm and certificate chain, about 4 KB of JSON with three base64 certificates), and
/// parsing it again was a third of a V2 notification's verification. Parsing is a function of the
/// bytes alone, so a header kept here is the header those bytes parse to; nothing is trusted by
/// it: the chain it names is verified against each payload's time (`CertificateChainVerifier`)
/// and every signature is checked.
final class JWSHeaderMemo: Sendable {
    private let parsed = Mutex<[[UInt8]: JWSHeader]>([:])
    /// Distinct headers kept; past it the memo starts again (Apple rotates leaves rarely).
    static let limit = 64

    /// The header `json` parses to under `limits` (a header that does not parse is refused
    /// every time, never kept).
    func header(_ json: [UInt8], limits: JSONLimits) throws(SignedDataVerificationError) -> JWSHeader {
        if let known = parsed.withLock({ $0[json] }) { return known }
        let header = try JWSHeader(json: json, limits: limits)
        parsed.withLock { memo in
            if memo.count >= Self.limit { memo.removeAll() }
            memo[json] = header
        }
        return header
    }
}
