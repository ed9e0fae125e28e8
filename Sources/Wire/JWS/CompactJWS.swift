/// A JWS in compact serialization (RFC 7515 §7.1) taken apart: three segments, each strict
/// base64url (no padding, canonical trailing bits). Nothing is trusted yet; the header and payload
/// are bytes for the caller's strict JSON parse. Download tokens (DownloadTokens) and App Store signed
/// data (AppStoreKit) both split here.
public struct CompactJWS: Sendable, Equatable {
    /// The decoded protected header (JSON text, unparsed).
    public let header: [UInt8]
    public let payload: [UInt8]
    public let signature: [UInt8]
    /// `BASE64URL(header) '.' BASE64URL(payload)` exactly as received: what the signature covers
    /// (RFC 7515 §5.2 step 8), never re-serialised JSON.
    public let signingInput: [UInt8]

    public enum SplitError: Error, Equatable, Sendable {
        /// Longer than the caller's limit, refused before any decoding.
        case tooLong
        /// Not exactly three `.`-separated segments.
        case segments
        /// A segment is not strict base64url.
        case base64
    }

    public init(splitting text: String, maximumBytes: Int) throws(SplitError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= maximumBytes else { throw .tooLong }
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count == 3 else { throw .segments }
        guard let header = Base64URL.decode(utf8: segments[0]),
              let payload = Base64URL.decode(utf8: segments[1]),
              let signature = Base64URL.decode(utf8: segments[2]) else { throw .base64 }
        self.header = header
        self.payload = payload
        self.signature = signature
        self.signingInput = Array(bytes[..<segments[1].endIndex])
    }
}
