import Foundation
@testable import GatewayConfiguration
import GatewayCore
import GatewayStore
import GatewayTesting
import OpenIDConnect
import Wire

/// A gateway configured with the test identity provider (`publisher`, and `apple` under Apple's
/// issuer when asked), reached through its verifier and its nonce route.
struct E31SignInGateway {
    let backed: BackedHarness
    let provider: IdentityProviderFixture

    static let appleIssuer = "https://appleid.apple.com"

    /// `configure` sets anything else of the gateway (a device limit, say).
    init(_ backend: HarnessBackend = .sqlite, apple: Bool = false,
         configure: (inout Configuration) -> Void = { _ in }) throws {
        let provider = try IdentityProviderFixture()
        self.provider = provider
        backed = try backend.harness { c in
            c.identityProviders = [provider.provider()] + (apple ? [provider.provider(id: "apple", issuer: Self.appleIssuer)] : [])
            configure(&c)
        }
    }

    var h: GatewayHarness { backed.harness }
    var verifier: any IdentityVerifying { h.runtime.core.readers.identityVerifier }
    var now: Instant { h.clock.now() }

    /// A nonce from `POST /v1/sessions/nonces`.
    func nonce() throws -> String {
        let answer = try h.client.post("/v1/sessions/nonces")
        guard answer.status == 201, let nonce = answer.json["nonce"] as? String else {
            throw HarnessError.unexpected("POST /v1/sessions/nonces answered \(answer.status) \(answer.text)")
        }
        return nonce
    }

    func verify(_ token: String, nonce: String, provider id: String = "publisher",
                address: String? = "192.0.2.1") throws(GatewayError) -> VerifiedIdentity {
        try verifier.verify(provider: id, idToken: token, nonce: nonce, clientAddress: address, now: now)
    }

    /// Uses the nonce up as the sign-in's own unit of work would.
    func useNonce(_ nonce: String) throws -> Bool {
        try h.runtime.core.store.write { tx throws(StoreError) in try verifier.useNonce(nonce, in: tx, now: now) }
    }

    func isLive(_ nonce: String) throws -> Bool {
        guard let hash = SignInNonce.hash(nonce) else { return false }
        return try h.runtime.core.store.signInNonceIsLive(hash: hash, now: now)
    }

    /// The claims of a good token for `nonce` now.
    func claims(_ nonce: String?) -> [String: JSONValue] { IdentityProviderFixture.claims(nonce: nonce, now: now) }
}
