import Wire

/// `Stripe-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…]` (stripe.md, Webhooks). Schemes
/// other than `v1` (`v0`) are ignored; several `v1` values appear while a rolled secret overlaps.
struct StripeSignatureHeader: Equatable {
    /// The decimal timestamp exactly as sent: it is what was signed.
    var timestampText: String
    var timestamp: Int64
    /// Each `v1` value, decoded from hex (only 32-byte values: anything else cannot match).
    var signatures: [[UInt8]]

    /// Bounds on what a sender may make the gateway parse and compare.
    static let maximumBytes = 2048
    static let maximumSignatures = 8

    init(parsing header: String) throws(StripeSignatureError) {
        guard header.utf8.count <= Self.maximumBytes else { throw .malformed }
        var timestampText: String?
        var signatures: [[UInt8]] = []
        for part in header.split(separator: ",", omittingEmptySubsequences: false) {
            guard let equals = part.firstIndex(of: "=") else { throw .malformed }
            let name = part[..<equals].trimmingSpaces, value = part[part.index(after: equals)...].trimmingSpaces
            switch name {
            case "t":
                guard timestampText == nil, !value.isEmpty, value.count <= 12, value.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 })
                else { throw .malformed }
                timestampText = value
            case "v1":
                guard signatures.count < Self.maximumSignatures else { throw .malformed }
                if let bytes = Hex.decode(value), bytes.count == 32 { signatures.append(bytes) }
            default:
                continue  // another scheme (v0): ignored
            }
        }
        guard let timestampText, let timestamp = Int64(timestampText) else { throw .malformed }
        self.timestampText = timestampText; self.timestamp = timestamp; self.signatures = signatures
    }
}

private extension Substring {
    /// Leading and trailing spaces dropped, on the UTF-8 view: reversing characters cost a
    /// webhook more than its HMAC.
    var trimmingSpaces: String {
        let space = UInt8(ascii: " ")
        guard let first = utf8.firstIndex(where: { $0 != space }), let last = utf8.lastIndex(where: { $0 != space }) else {
            return ""
        }
        return String(self[first...last])
    }
}
