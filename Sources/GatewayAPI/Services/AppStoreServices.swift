import AppStoreKit
import Entitle
import Foundation

/// The ways facts reach the gateway from Apple (E2), as configured: the verifyReceipt client and,
/// when roots and a bundle id are configured, the V2 signed-data verifier.
struct AppStoreServices: Sendable {
    var receipts: VerifyReceiptClient
    /// nil: V2 signed data is refused (no `ISSUE_GATEWAY_APPLE_ROOT_CERTS` or no bundle id).
    var signedData: SignedDataVerifier?
    /// The shared secret V1 notifications must carry; nil refuses every V1 notification.
    var sharedSecret: String?
    /// When set, a verified receipt must belong to this app.
    var bundleId: String?

    /// Builds the real clients from the configuration.
    static func from(_ configuration: Configuration, clock: any GatewayClock = SystemClock(),
                     counters: @escaping @Sendable (VerifyReceiptAttempt) -> Void)
        throws(Gateway.StartError) -> AppStoreServices {
        guard let production = URL(string: configuration.appStoreProductionURL),
              let sandbox = URL(string: configuration.appStoreSandboxURL) else {
            throw Gateway.StartError(description: "the App Store URLs are not valid URLs")
        }
        let receipts = VerifyReceiptClient(
            configuration: VerifyReceiptConfiguration(productionURL: production, sandboxURL: sandbox,
                                                      sharedSecret: configuration.appStoreSharedSecret),
            observe: counters)
        var signedData: SignedDataVerifier?
        if !configuration.appleRootCertificatePaths.isEmpty, let bundleId = configuration.bundleId {
            do {
                let roots = try AppleRootCertificates.load(paths: configuration.appleRootCertificatePaths)
                signedData = try SignedDataVerifier(
                    roots: roots, policy: SignedDataPolicy(bundleId: bundleId, appAppleId: configuration.appAppleId,
                                                           // E3 is the engine's: sandbox facts are stored and counted
                                                           // only where ISSUE_GATEWAY_ACCEPT_SANDBOX says.
                                                           acceptedEnvironments: [.production, .sandbox]),
                    clock: { clock.now() })
            } catch {
                throw Gateway.StartError(description: "ISSUE_GATEWAY_APPLE_ROOT_CERTS: \(error)")
            }
        }
        return AppStoreServices(receipts: receipts, signedData: signedData,
                                sharedSecret: configuration.appStoreSharedSecret, bundleId: configuration.bundleId)
    }
}
