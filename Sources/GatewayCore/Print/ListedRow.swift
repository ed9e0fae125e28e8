import Entitle
import Wire

/// One row of a subscriber list as sent, checked field by field (E29): a customer number, a
/// verification value, `start` and an optional `end` (RFC 3339). The verification value is still
/// in clear here; it is hashed before anything is stored.
package struct ListedRow: Sendable, Equatable {
    package var customerNumber: String
    package var verification: String
    package var terms: PrintSubscriberTerms
    /// Physical line (from 1) the row starts on.
    package var line: Int

    package static let customerNumberLimit = 128
    package static let verificationLimit = 256

    /// The row from its named fields (`end` nil or empty: open), or why it is refused.
    package static func make(customerNumber: String?, verification: String?, start: String?, end: String?,
                             line: Int) -> Result<ListedRow, RowError> {
        guard let customerNumber, !customerNumber.isEmpty else { return .failure(RowError("customerNumber is missing")) }
        guard customerNumber.utf8.count <= customerNumberLimit,
              customerNumber.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7f }) else {
            return .failure(RowError("customerNumber must be 1 to \(customerNumberLimit) bytes without spaces or control characters"))
        }
        guard let verification, !VerificationHasher.normalize(verification).isEmpty else {
            return .failure(RowError("verification is missing"))
        }
        guard verification.utf8.count <= verificationLimit else {
            return .failure(RowError("verification is longer than \(verificationLimit) bytes"))
        }
        guard let startText = start, let startInstant = Instant(rfc3339: startText) else {
            return .failure(RowError("start must be an RFC 3339 instant"))
        }
        var endInstant: Instant?
        if let end, !end.isEmpty {
            guard let parsed = Instant(rfc3339: end) else { return .failure(RowError("end must be an RFC 3339 instant or empty")) }
            guard parsed > startInstant else { return .failure(RowError("end must be after start")) }
            endInstant = parsed
        }
        return .success(ListedRow(customerNumber: customerNumber, verification: verification,
                                  terms: PrintSubscriberTerms(start: startInstant, end: endInstant), line: line))
    }
}

/// Why a line of a list was refused (answered as `{"line", "error"}`).
package struct RowError: Error, Equatable, Sendable {
    package var message: String
    package init(_ message: String) { self.message = message }
}

/// What a list reader gives for each row: the row, or the line and why it was refused.
package enum ListLine: Sendable, Equatable {
    case row(ListedRow)
    case rejected(line: Int, RowError)
}
