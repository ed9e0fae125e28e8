import AppStoreKit
import Foundation
import IssueCatalog
import Wire

/// Signs V2 payloads the way the App Store does, with a `TestCertificateAuthority`: signed
/// transactions, signed renewal info and `{"signedPayload": …}` notification bodies (appstore.md
/// "Version 2"). For tests and for developers trying the gateway without Apple; the gateway
/// accepts them once `authority`'s root is in `ISSUE_GATEWAY_APPLE_ROOT_CERTS`.
public struct SimulatedAppStoreSigner: Sendable {
    public let authority: TestCertificateAuthority
    public var bundleId: String
    public var appAppleId: Int64
    /// `Production` or `Sandbox`, as Apple spells it in V2 payloads.
    public var environment: String

    public init(authority: TestCertificateAuthority, bundleId: String, appAppleId: Int64, environment: String = "Sandbox") {
        self.authority = authority
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
    }

    /// A `JWSTransaction`: `fields` (transactionId, productId, purchaseDate…) plus this app's
    /// `bundleId`, `environment` and `signedDate`.
    public func signedTransaction(_ fields: [String: Any], signedDate: Instant) -> String? {
        authority.sign(json: fields.merging(["bundleId": bundleId, "environment": environment,
                                             "signedDate": signedDate.millisecondsSinceEpoch]) { _, stamped in stamped })
    }

    /// A `JWSRenewalInfo`: `fields` plus `environment` and `signedDate` (renewal info has no bundle id).
    public func signedRenewalInfo(_ fields: [String: Any], signedDate: Instant) -> String? {
        authority.sign(json: fields.merging(["environment": environment,
                                             "signedDate": signedDate.millisecondsSinceEpoch]) { _, stamped in stamped })
    }

    /// A V2 notification request body, `{"signedPayload": "<JWS>"}`, nesting the given signed
    /// transaction and renewal info under `data`.
    public func notificationBody(type: String, subtype: String? = nil, notificationUUID: String, signedDate: Instant,
                                 signedTransactionInfo: String? = nil, signedRenewalInfo: String? = nil) -> Data? {
        guard let signedPayload = signedNotification(type: type, subtype: subtype, notificationUUID: notificationUUID,
                                                     signedDate: signedDate, signedTransactionInfo: signedTransactionInfo,
                                                     signedRenewalInfo: signedRenewalInfo) else { return nil }
        return try? JSONSerialization.data(withJSONObject: ["signedPayload": signedPayload], options: [.sortedKeys])
    }

    /// The notification's `signedPayload` JWS itself.
    public func signedNotification(type: String, subtype: String? = nil, notificationUUID: String, signedDate: Instant,
                                   signedTransactionInfo: String? = nil, signedRenewalInfo: String? = nil) -> String? {
        var data: [String: Any] = ["bundleId": bundleId, "appAppleId": appAppleId, "environment": environment]
        data["signedTransactionInfo"] = signedTransactionInfo
        data["signedRenewalInfo"] = signedRenewalInfo
        var notification: [String: Any] = ["notificationType": type, "notificationUUID": notificationUUID, "version": "2.0",
                                           "signedDate": signedDate.millisecondsSinceEpoch, "data": data]
        notification["subtype"] = subtype
        return authority.sign(json: notification)
    }
}

extension X509Certificate {
    /// PEM (RFC 7468 §5), for writing the simulator's root where `ISSUE_GATEWAY_APPLE_ROOT_CERTS` points.
    public var pem: String {
        let body = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE-----\n\(body)\n-----END CERTIFICATE-----\n"
    }
}
