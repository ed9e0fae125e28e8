import GatewayCore
import HTTPServer
import Wire

/// `POST /v1/signinwithapple/notifications` (readers.md, Sign in with Apple's server
/// notifications): Apple's server-to-server events, each a JWS verified as a token of the
/// provider `apple`; the event is then taken (identity removed, sessions ended, the account
/// deleted when nothing is left of it, the email dropped or kept). Anyone may post: the JWS is
/// the proof.
package struct SignInWithAppleController: APIController {
    /// Apple's payload is one JWS of a few kilobytes.
    static let maxBodyBytes = 16_384

    private let events: AppleServerEvents
    private let actions: AppleIdentityEvents
    private let clock: any GatewayClock

    package init(events: AppleServerEvents, actions: AppleIdentityEvents, clock: any GatewayClock) {
        self.events = events; self.actions = actions; self.clock = clock
    }

    package func register(_ router: APIRouterBuilder) {
        router.add("POST", "/v1/signinwithapple/notifications", execution: .store, maxBodyBytes: Self.maxBodyBytes,
                   route: { [self] context throws(GatewayError) in
            let body = try RequestBody(context.request)
            let payload = try body.string("payload")
            let event = try events.appleServerEvent(payload: payload, now: clock.now())
            _ = try actions.take(event)
            return .json(200) { w in w.object { w in w.field("received", true) } }
        })
    }
}
