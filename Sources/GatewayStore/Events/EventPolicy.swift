/// Which outside deliveries are configured. Nothing is written to the outbox or the push jobs for
/// a delivery that is off, so a gateway without APNs or webhook settings stores what it always did.
public struct EventPolicy: Sendable, Equatable {
    /// `ISSUE_GATEWAY_WEBHOOK_URL` is set: `issue.published` and `entitlement.changed` are kept.
    public var webhooks: Bool
    /// APNs credentials are set: a published issue makes a push job.
    public var pushes: Bool

    public init(webhooks: Bool, pushes: Bool) { self.webhooks = webhooks; self.pushes = pushes }

    public static let off = EventPolicy(webhooks: false, pushes: false)

    /// Publication events are recorded (and fired) only when one of their deliveries is on.
    public var publicationEvents: Bool { webhooks || pushes }
}
