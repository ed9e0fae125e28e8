import Foundation
import IssueCatalog
import Wire

/// The few payload fields the verifier checks itself; everything else is `AppStoreParsers`' business.
/// Read with Wire's strict parser: a repeated name is refused (RFC 7519 §4) and a field
/// of the wrong JSON type is refused, not coerced; `null` counts as absent.
struct SignedPayloadClaims: Equatable {
    /// `signedDate`, ms since the epoch (a JSON number, sometimes with a fraction: truncated).
    var signedDate: Instant?
    /// Where the claims checked against configuration live: the payload itself for transactions
    /// and renewal info, `data` (or `summary`) for notifications.
    var fields: Fields

    /// Beyond this a `signedDate` is no instant Apple could have meant (year ~287,000).
    static let signedDateMagnitudeLimit = 9.0e15

    struct Fields: Equatable {
        var signedDate: Double?
        var bundleId: String?
        var appAppleId: Int64?
        var environment: String?
        /// A notification's nested JWS, verified separately as `.transaction`/`.renewalInfo`.
        var signedTransactionInfo: String?
        var signedRenewalInfo: String?

        init() {}

        init(_ object: JSONObject, path: String) throws(SignedDataVerificationError) {
            let reader = fieldReader(object, path: path)
            signedDate = try reader.number("signedDate")
            bundleId = try reader.string("bundleId")
            appAppleId = try reader.integer("appAppleId")
            environment = try reader.string("environment")
            signedTransactionInfo = try reader.string("signedTransactionInfo")
            signedRenewalInfo = try reader.string("signedRenewalInfo")
        }
    }

    init(payload: [UInt8], kind: SignedPayloadKind, limits: JSONLimits) throws(SignedDataVerificationError) {
        let parsed: JSONObject?
        do { parsed = try StrictJSONObject.parse(payload, limits: limits) } catch {
            throw .malformedPayload(error.isDuplicateName ? error.description : "not JSON")
        }
        guard let object = parsed else { throw .malformedPayload("not a JSON object") }
        let signedDate: Double?
        switch kind {
        case .notification:
            let envelope = fieldReader(object, path: "")
            signedDate = try envelope.number("signedDate")
            let (data, summary) = (try envelope.object("data"), try envelope.object("summary"))
            if let data {
                fields = try Fields(data.object, path: "data.")
            } else if let summary {
                fields = try Fields(summary.object, path: "summary.")
            } else {
                fields = Fields()
            }
        case .transaction, .renewalInfo:
            fields = try Fields(object, path: "")
            signedDate = fields.signedDate
        }
        guard let signedDate else { return }
        guard signedDate.isFinite, abs(signedDate) < Self.signedDateMagnitudeLimit else {
            throw .malformedPayload("signedDate out of range")
        }
        self.signedDate = Instant(millisecondsSinceEpoch: Int64(signedDate.rounded(.towardZero)))
    }
}

/// The claims' members, a present member of another type being `bad field <path><name>`.
private func fieldReader(_ object: JSONObject, path: String) -> JSONFieldReader<SignedDataVerificationError> {
    JSONFieldReader(object) { .malformedPayload("bad field \(path)\($0)") }
}
