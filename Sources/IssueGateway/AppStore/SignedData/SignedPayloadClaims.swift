import Foundation
import IssueCatalog
import Wire

/// The few payload fields the verifier checks itself; everything else is the parsers' business
/// (Entitle). Read with a typed decoder so a field of the wrong JSON type is refused, not coerced.
struct SignedPayloadClaims: Equatable {
    /// `signedDate`, ms since the epoch (a JSON number, sometimes with a fraction: truncated).
    var signedDate: Instant?
    /// Where the claims checked against configuration live: the payload itself for transactions
    /// and renewal info, `data` (or `summary`) for notifications.
    var fields: Fields

    struct Fields: Decodable, Equatable {
        var signedDate: Double?
        var bundleId: String?
        var appAppleId: Int64?
        var environment: String?
        /// A notification's nested JWS, verified separately as `.transaction`/`.renewalInfo`.
        var signedTransactionInfo: String?
        var signedRenewalInfo: String?
    }

    private struct NotificationEnvelope: Decodable {
        var signedDate: Double?
        var data: Fields?
        var summary: Fields?
    }

    init(payload: Data, kind: SignedPayloadKind) throws(SignedDataVerificationError) {
        let signedDate: Double?
        do {
            switch kind {
            case .notification:
                let envelope = try JSONDecoder().decode(NotificationEnvelope.self, from: payload)
                signedDate = envelope.signedDate
                fields = envelope.data ?? envelope.summary ?? Fields()
            case .transaction, .renewalInfo:
                fields = try JSONDecoder().decode(Fields.self, from: payload)
                signedDate = fields.signedDate
            }
        } catch {
            throw .malformedPayload(Self.describe(error))
        }
        guard let signedDate else { return }
        guard signedDate.isFinite, abs(signedDate) < 9.0e15 else { throw .malformedPayload("signedDate out of range") }
        self.signedDate = Instant(millisecondsSinceEpoch: Int64(signedDate.rounded(.towardZero)))
    }

    private static func describe(_ error: Error) -> String {
        guard let decoding = error as? DecodingError else { return "not JSON" }
        switch decoding {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
             .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "not a JSON object" : "bad field \(path)"
        @unknown default:
            return "not JSON"
        }
    }
}
