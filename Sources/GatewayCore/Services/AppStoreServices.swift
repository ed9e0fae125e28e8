import AppStoreKit
import Entitle
import Foundation

/// The ways facts reach the gateway from Apple (E2), as configured: the verifyReceipt client and,
/// when roots and a bundle id are configured, the V2 signed-data verifier.
package struct AppStoreServices: Sendable {
    package var receipts: VerifyReceiptClient
    /// nil: V2 signed data is refused (no `ISSUE_GATEWAY_APPLE_ROOT_CERTS` or no bundle id).
    package var signedData: SignedDataVerifier?
    /// The shared secret V1 notifications must carry; nil refuses every V1 notification.
    package var sharedSecret: String?
    /// When set, a verified receipt must belong to this app.
    package var bundleId: String?
    /// The App Store Server API, when its credentials are configured; nil: the
    /// gateway works from receipts, signed data and notifications alone, as before.
    package var serverAPI: ServerAPIClient? = nil

    package init(receipts: VerifyReceiptClient, signedData: SignedDataVerifier?, sharedSecret: String?, bundleId: String?,
                 serverAPI: ServerAPIClient? = nil) {
        self.receipts = receipts; self.signedData = signedData; self.sharedSecret = sharedSecret
        self.bundleId = bundleId; self.serverAPI = serverAPI
    }
}
