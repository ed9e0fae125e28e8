import AppStoreKit
import Foundation
import Entitle
import Wire

/// Produces App Store-shaped compact JWS (RFC 7515 §7.1): header `{"alg","x5c","typ":"JWT"}`,
/// signature raw r‖s. Header fields are parameters so tests can build each refusal.
public enum JWSSigner {
    /// Signs `payload` with `key`, naming `chain` (DER, leaf first) in `x5c`.
    /// `algorithm` is written as given; only `ES256` is ever accepted by the verifier.
    public static func sign(payload: Data, key: SigningKey, chain: [Data], algorithm: String = "ES256") -> String? {
        let header: [String: Any] = ["alg": algorithm, "typ": "JWT", "x5c": chain.map { $0.base64EncodedString() }]
        guard let headerJSON = try? JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]) else { return nil }
        return key.compactES256(header: Array(headerJSON), claims: Array(payload))
    }
}
