import Foundation
import OutboundHTTP
import Wire

/// Where the simulator pushes the notifications of its steps, as a Pub/Sub push subscription
/// would (googleplay.md "Real-time developer notifications"): the gateway's push endpoint and the
/// subscription's audience.
public struct PushTarget: Sendable {
    public var url: URL
    /// `aud` of the push tokens (`ISSUE_GATEWAY_GOOGLE_PUSH_AUDIENCE`); Google's default for a push
    /// subscription is its endpoint URL.
    public var audience: String
    /// `subscription` of the push body.
    public var subscription: String
    /// One kept session for every push to the gateway (connections reused).
    let transport = URLSessionExchange()

    public init(url: URL, audience: String? = nil, subscription: String = "projects/issue-gateway/subscriptions/rtdn") {
        self.url = url
        self.audience = audience ?? url.absoluteString
        self.subscription = subscription
    }

    /// What the gateway answered a push.
    public struct Answer: Sendable, Equatable {
        public var status: Int
        public var body: [UInt8]
    }

    /// How long the gateway gets to store a notification (it asks the simulator meanwhile).
    static let timeout: TimeInterval = 15
    /// The longest gateway answer read.
    static let maximumAnswerBytes = 64 * 1024

    /// POSTs the Pub/Sub push body of `notification` with a bearer OIDC token the simulator signs.
    /// Blocking: control routes run it on their own worker pool, never on the event loop.
    func push(_ notification: SimulatedNotification, from simulator: GooglePlaySimulator) throws(TransportFailure) -> Answer {
        let token = simulator.pushToken(audience: audience)
        let answer = try transport.postJSON(
            Data(notification.pushBody(subscription: subscription)), to: url, headers: ["Authorization": "Bearer " + token],
            timeout: Self.timeout, maximumResponseBytes: Self.maximumAnswerBytes)
        return Answer(status: answer.statusCode, body: Array(answer.body))
    }
}
