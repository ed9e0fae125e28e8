import GatewayCore
import HTTPServer
import Wire

/// `POST /v1/sessions/nonces` (readers.md E31, Decisions): anyone may ask, without a body, for
/// the nonce an app puts in its sign-in request to the identity provider.
package struct SignInNonceController: APIController {
    private let nonces: SignInNonces
    private let clock: any GatewayClock

    /// The route takes no body; a small one is tolerated and ignored.
    static let maxBodyBytes = 1024

    package init(nonces: SignInNonces, clock: any GatewayClock) { self.nonces = nonces; self.clock = clock }

    package func register(_ router: APIRouterBuilder) {
        router.add("POST", "/v1/sessions/nonces", execution: .store, maxBodyBytes: Self.maxBodyBytes,
                   route: { [self] _ throws(GatewayError) in
            let issued = try nonces.issue(now: clock.now())
            return .json(201) { w in
                w.object { w in
                    w.field("nonce", issued.nonce)
                    w.field("expiresAt", issued.expiresAt.rfc3339)
                }
            }
        })
    }
}
