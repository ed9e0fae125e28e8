import Wire

/// Header and claims of signed data go through Wire's strict parser (RFC 7515 §5.2 step 4,
/// RFC 7519 §4: a repeated member name is refused, not resolved to its last value).
enum StrictJSONObject {
    /// The object, or nil when the text is valid JSON but not an object.
    static func parse(_ bytes: [UInt8], limits: JSONLimits) throws(JSONParseError) -> JSONObject? {
        try JSONParser(limits: limits).parse(bytes: bytes).objectValue
    }
}
