// Whole sign-ins through the core use case (readers.md E31, E32, E34): `SignInNonces.issue` for
// each reader first, then `SignIn.withIDToken` with a new subject each time (a new account and its
// session, one unit of work), on a SQLite store in a temporary folder.
import Foundation
import GatewayCore
import GatewayCrypto
import GatewayStore
import OpenIDConnect
import SQLiteStore
import Wire

/// Nonces issued and sign-ins completed per second, `count` of each, single-threaded.
func measureWholeSignIns(providers: OpenIDProviders, provider: String, count: Int, kid: String, alg: String,
                         sign: (_ header: [UInt8], _ payload: [UInt8]) -> String?) -> (nonces: Double, signIns: Double) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("signin-bench-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try! SQLiteStore(path: folder.appendingPathComponent("gateway.sqlite").path)
    let clock = SystemClock(), random = SystemRandom()
    let authenticator = try! Authenticator(store: store, adminKey: "bench-admin-key-0123456789abcdef", cacheBytes: 16 << 20, clock: clock,
                                          touches: SessionTouches(store: store))
    let verifier = ProviderIdentityVerifier(providers: providers, store: store)
    let nonces = SignInNonces(store: store, random: random, isConfigured: verifier.isConfigured)
    let signIn = SignIn(store: store, identifiers: Identifiers(random: random), clock: clock, authenticator: authenticator,
                        accounts: AccountFactsCache(loader: { id throws(StoreError) in try store.accountFacts(id) },
                                                    factsBytes: 16 << 20, answerBytes: 16 << 20),
                        policy: .standard, verifier: verifier)

    var issued: [SignInNonce] = []
    let nonceSeconds = measureSeconds { issued = (0..<count).map { _ in try! nonces.issue(now: clock.now()) } }
    let now = clock.now()
    let tokens = issued.enumerated().map { i, issued in
        SignInTokens.token(subject: i, nonce: issued.nonce, now: now, kid: kid, alg: alg, sign: sign)
    }
    var created = 0
    let signInSeconds = measureSeconds {
        for (i, (token, nonce)) in tokens.enumerated() {
            let result = try! signIn.withIDToken(provider: provider, idToken: token, nonce: nonce,
                                                 SignIn.Request(device: SessionDevice(id: "device-\(i)", name: "Reader's phone", platform: "ios")))
            if result.created { created += 1 }
        }
    }
    precondition(created == count, "\(count - created) sign-ins did not make their account")
    return (Double(count) / nonceSeconds, Double(count) / signInSeconds)
}
