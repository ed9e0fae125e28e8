import Foundation
import Entitle
import Wire

/// A JWS in compact serialization (RFC 7515 §7.1), split and decoded but not yet trusted.
struct AppleCompactJWS {
    /// The ASCII bytes of `header.payload`: what the signature covers (RFC 7515 §5.2 step 8).
    let signingInput: Data
    let headerJSON: Data
    let payload: Data
    let signature: Data

    init(_ text: String, maximumLength: Int) throws(SignedDataVerificationError) {
        guard text.utf8.count <= maximumLength else { throw .tooLarge(limit: maximumLength) }
        let segments = text.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3,
              let header = Base64URL.decode(String(segments[0])).map({ Data($0) }), !header.isEmpty,
              let payload = Base64URL.decode(String(segments[1])).map({ Data($0) }), !payload.isEmpty,
              let signature = Base64URL.decode(String(segments[2])).map({ Data($0) })
        else { throw .malformedCompactSerialization }
        self.signingInput = Data("\(segments[0]).\(segments[1])".utf8)
        self.headerJSON = header
        self.payload = payload
        self.signature = signature
    }
}
