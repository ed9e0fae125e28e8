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
    /// The App Store Server API, when its credentials are configured (issue #12); nil: the
    /// gateway works from receipts, signed data and notifications alone, as before.
    var serverAPI: ServerAPIClient? = nil

    /// Builds the real clients from the configuration.
    static func from(_ configuration: Configuration, clock: any GatewayClock = SystemClock(),
                     counters: @escaping @Sendable (VerifyReceiptAttempt) -> Void,
                     serverAPICalls: @escaping @Sendable (ServerAPIAttempt) -> Void = { _ in })
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
                                sharedSecret: configuration.appStoreSharedSecret, bundleId: configuration.bundleId,
                                serverAPI: try serverAPI(configuration, verifier: signedData, clock: clock,
                                                         observe: serverAPICalls))
    }

    /// The Server API client when all three credentials are set; the `.p8` is read and checked
    /// here, so a wrong key stops the gateway at start with the setting's name.
    static func serverAPI(_ configuration: Configuration, verifier: SignedDataVerifier?, clock: any GatewayClock,
                          observe: @escaping @Sendable (ServerAPIAttempt) -> Void = { _ in })
        throws(Gateway.StartError) -> ServerAPIClient? {
        let parts = [configuration.appStoreAPIKeyId, configuration.appStoreAPIIssuerId, configuration.appStoreAPIPrivateKeyPath]
        guard parts.contains(where: { $0 != nil }) else { return nil }
        guard let keyId = parts[0], let issuerId = parts[1], let path = parts[2] else {
            throw Gateway.StartError(description: "ISSUE_GATEWAY_APPSTORE_API_KEY_ID, _ISSUER_ID and _PRIVATE_KEY must be set together")
        }
        guard let verifier, let bundleId = configuration.bundleId else {
            throw Gateway.StartError(description: "the App Store Server API needs ISSUE_GATEWAY_BUNDLE_ID and ISSUE_GATEWAY_APPLE_ROOT_CERTS to verify what it answers")
        }
        guard let production = URL(string: configuration.appStoreAPIProductionURL),
              let sandbox = URL(string: configuration.appStoreAPISandboxURL) else {
            throw Gateway.StartError(description: "the App Store Server API URLs are not valid URLs")
        }
        let credentials: ServerAPICredentials
        do { credentials = try .load(keyId: keyId, issuerId: issuerId, bundleId: bundleId, privateKeyPath: path) } catch {
            throw Gateway.StartError(description: "ISSUE_GATEWAY_APPSTORE_API_PRIVATE_KEY: \(error)")
        }
        return ServerAPIClient(configuration: ServerAPIConfiguration(productionURL: production, sandboxURL: sandbox),
                               credentials: credentials, verifier: verifier, clock: { clock.now() }, observe: observe)
    }
}
