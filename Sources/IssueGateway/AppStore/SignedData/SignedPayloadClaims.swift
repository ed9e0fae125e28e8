import Foundation
import IssueCatalog

/// The few payload fields the verifier checks itself; everything else is the parsers' business
/// (Entitle). Read with a typed decoder so a field of the wrong JSON type is refused, not coerced.
struct SignedPayloadClaims: Equatable {
    /// `signedDate`, ms since the epoch (a JSON number, sometimes with a fraction: truncated).
    var signedDate: Instant?
    var bundleId: String?
    var appAppleId: Int64?
    var environment: String?
    /// A notification's nested JWS (under `data`), verified separately as `.transaction`/`.renewalInfo`.
    var signedTransactionInfo: String?
    var signedRenewalInfo: String?

    init(payload: Data, kind: SignedPayloadKind) throws(SignedDataVerificationError) {
        let decoder = JSONDecoder()
        do {
            switch kind {
            case .notification:
                let envelope = try decoder.decode(NotificationEnvelope.self, from: payload)
                let inner = envelope.data ?? envelope.summary
                try self.init(signedDate: envelope.signedDate, inner: inner)
            case .transaction, .renewalInfo:
                let fields = try decoder.decode(Fields.self, from: payload)
                try self.init(signedDate: fields.signedDate, inner: fields)
            }
        } catch let error as SignedDataVerificationError {
            throw error
        } catch {
            throw .malformedPayload(Self.describe(error))
        }
    }

    private init(signedDate: Double?, inner: Fields?) throws(SignedDataVerificationError) {
        if let signedDate {
            guard signedDate.isFinite, abs(signedDate) < 9.0e15 else { throw .malformedPayload("signedDate out of range") }
            self.signedDate = Instant(millisecondsSinceEpoch: Int64(signedDate.rounded(.towardZero)))
        }
        bundleId = inner?.bundleId
        appAppleId = inner?.appAppleId
        environment = inner?.environment
        signedTransactionInfo = inner?.signedTransactionInfo
        signedRenewalInfo = inner?.signedRenewalInfo
    }

    private struct Fields: Decodable {
        var signedDate: Double?
        var bundleId: String?
        var appAppleId: Int64?
        var environment: String?
        var signedTransactionInfo: String?
        var signedRenewalInfo: String?
    }

    private struct NotificationEnvelope: Decodable {
        var signedDate: Double?
        var data: Fields?
        var summary: Fields?
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
