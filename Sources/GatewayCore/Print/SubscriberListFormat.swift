/// The media types a subscriber list may come in (http-api.md, Print subscribers and
/// institutions): CSV (RFC 4180) with a header line, or JSON lines.
package enum SubscriberListFormat: Sendable, Equatable {
    case csv
    case ndjson

    /// The format a `Content-Type` names (its parameters, such as `charset`, ignored); nil for
    /// any other media type (`unsupportedFormat`).
    package init?(contentType: String?) {
        guard let contentType else { return nil }
        let type = contentType.split(separator: ";", maxSplits: 1).first.map { String($0) } ?? ""
        switch String(type.filter { $0 != " " && $0 != "\t" }).lowercased() {
        case "text/csv": self = .csv
        case "application/x-ndjson", "application/jsonl", "application/jsonlines": self = .ndjson
        default: return nil
        }
    }
}
