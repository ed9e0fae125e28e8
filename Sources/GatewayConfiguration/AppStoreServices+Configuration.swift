import AppStoreKit
import Entitle
import Foundation
import GatewayCore

/// The App Store clients a configuration names (E2).
extension AppStoreServices {
    /// Builds the real clients from the configuration.
    package static func from(_ configuration: Configuration, clock: any GatewayClock = SystemClock(),
                     counters: @escaping @Sendable (VerifyReceiptAttempt) -> Void,
                     serverAPICalls: @escaping @Sendable (ServerAPIAttempt) -> Void = { _ in })
        throws(StartError) -> AppStoreServices {
        guard let production = URL(string: configuration.appStoreProductionURL),
              let sandbox = URL(string: configuration.appStoreSandboxURL) else {
            throw StartError(description: "the App Store URLs are not valid URLs")
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
                throw StartError(description: "ISSUE_GATEWAY_APPLE_ROOT_CERTS: \(error)")
            }
        }
        return AppStoreServices(receipts: receipts, signedData: signedData,
                                sharedSecret: configuration.appStoreSharedSecret, bundleId: configuration.bundleId,
                                serverAPI: try serverAPI(configuration, verifier: signedData, clock: clock,
                                                         observe: serverAPICalls))
    }

    /// The Server API client when all three credentials are set; the `.p8` is read and checked
    /// here, so a wrong key stops the gateway at start with the setting's name.
    package static func serverAPI(_ configuration: Configuration, verifier: SignedDataVerifier?, clock: any GatewayClock,
                          observe: @escaping @Sendable (ServerAPIAttempt) -> Void = { _ in })
        throws(StartError) -> ServerAPIClient? {
        let parts = [configuration.appStoreAPIKeyId, configuration.appStoreAPIIssuerId, configuration.appStoreAPIPrivateKeyPath]
        guard parts.contains(where: { $0 != nil }) else { return nil }
        guard let keyId = parts[0], let issuerId = parts[1], let path = parts[2] else {
            throw StartError(description: "ISSUE_GATEWAY_APPSTORE_API_KEY_ID, _ISSUER_ID and _PRIVATE_KEY must be set together")
        }
        guard let verifier, let bundleId = configuration.bundleId else {
            throw StartError(description: "the App Store Server API needs ISSUE_GATEWAY_BUNDLE_ID and ISSUE_GATEWAY_APPLE_ROOT_CERTS to verify what it answers")
        }
        guard let production = URL(string: configuration.appStoreAPIProductionURL),
              let sandbox = URL(string: configuration.appStoreAPISandboxURL) else {
            throw StartError(description: "the App Store Server API URLs are not valid URLs")
        }
        let credentials: ServerAPICredentials
        do { credentials = try .load(keyId: keyId, issuerId: issuerId, bundleId: bundleId, privateKeyPath: path) } catch {
            throw StartError(description: "ISSUE_GATEWAY_APPSTORE_API_PRIVATE_KEY: \(error)")
        }
        return ServerAPIClient(configuration: ServerAPIConfiguration(productionURL: production, sandboxURL: sandbox),
                               credentials: credentials, verifier: verifier, clock: { clock.now() }, observe: observe)
    }
}
