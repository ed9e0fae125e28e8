import Wire

/// A Stripe event (stripe.md, Webhooks): the envelope and the object it carries, rendered in the
/// API version of the endpoint (or, listed, in the event's own `api_version`).
public struct StripeEvent: Sendable {
    /// `evt_…`: the dedupe key.
    public var id: String
    public var type: String
    public var created: Instant
    public var livemode: Bool
    public var apiVersion: String?
    /// `data.object`.
    public var object: StripeFields

    public init(_ f: StripeFields) throws(StripeParseError) {
        id = try f.requiredString("id")
        guard try f.string("object") ?? "event" == "event" else { throw .invalidField(f.name("object"), expected: "\"event\"") }
        type = try f.requiredString("type")
        created = try f.requiredInstant("created")
        livemode = try f.bool("livemode") ?? false
        apiVersion = try f.string("api_version")
        guard let data = try f.fields("data"), let object = try data.fields("object") else { throw .missingField(f.name("data.object")) }
        self.object = object
    }

    public static func parse(_ body: [UInt8]) throws(StripeParseError) -> StripeEvent {
        try StripeEvent(StripeFields.parse(body))
    }
}
