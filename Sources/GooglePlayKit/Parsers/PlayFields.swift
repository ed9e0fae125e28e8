import Wire

/// Google's bodies read with Wire's reader and `PlayParseError`: a JSON `null` counts as absent,
/// every error names the field's path. Google's JSON (proto3's mapping) sends 64-bit integers as
/// strings (`purchaseTimeMillis`: `integerOrDigits`, `milliseconds`) and timestamps as RFC 3339
/// text (`rfc3339`).
typealias PlayFields = JSONFieldReader<PlayParseError>

extension PlayParseError: JSONFieldFailure {}

extension PlayFields {
    /// Google's answers are small (a subscription; a page of 1000 voided purchases is ~400 KiB).
    static var maximumBodyBytes: Int { 4 << 20 }

    static func parse(_ body: some Collection<UInt8>, limit: Int = maximumBodyBytes) throws(PlayParseError) -> PlayFields {
        try parse(body, limits: JSONLimits(maxBytes: limit, maxDepth: 32))
    }
}
