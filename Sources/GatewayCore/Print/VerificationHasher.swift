import GatewayCrypto
import Wire

/// E29: verification values (a postcode, a surname) are kept only as keyed hashes: HMAC-SHA-256
/// under a server-side key that is never in the database, so a stolen copy of the database does
/// not give away a list of postcodes (they are few enough to try every one against a plain hash).
/// The message binds the value to its publication and customer number, so equal postcodes do not
/// give equal hashes. Values are compared after removing white space and folding case.
package struct VerificationHasher: Sendable {
    private let key: HMACSHA256.PreparedKey

    package init(key: [UInt8]) throws(CryptoError) { self.key = try HMACSHA256.PreparedKey(key: key) }

    /// E29's normal form: no white space, case folded.
    package static func normalize(_ value: String) -> String {
        String(String.UnicodeScalarView(value.unicodeScalars.filter { !$0.properties.isWhitespace })).lowercased()
    }

    /// The stored form: lower-case hex of the HMAC.
    package func hash(publicationId: String, customerNumber: String, verification: String) throws(CryptoError) -> String {
        Hex.encode(try mac(publicationId: publicationId, customerNumber: customerNumber, verification: verification))
    }

    /// Whether `verification` is the value behind `storedHex`, compared in constant time.
    package func matches(publicationId: String, customerNumber: String, verification: String, storedHex: String) -> Bool {
        guard let presented = try? hash(publicationId: publicationId, customerNumber: customerNumber,
                                        verification: verification) else { return false }
        return ConstantTime.equals(Array(presented.utf8), Array(storedHex.utf8))
    }

    private func mac(publicationId: String, customerNumber: String, verification: String) throws(CryptoError) -> [UInt8] {
        // Lengths first, so no two (publication, number, value) triples give the same message.
        var message: [UInt8] = []
        for part in [publicationId, customerNumber, Self.normalize(verification)] {
            let bytes = Array(part.utf8)
            message += withUnsafeBytes(of: UInt32(bytes.count).bigEndian, Array.init)
            message += bytes
        }
        return try key.authenticationCode(message: message)
    }
}
