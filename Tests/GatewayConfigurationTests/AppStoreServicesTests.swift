import AppStoreKit
@testable import GatewayConfiguration
import Testing

/// The App Store clients the gateway builds from its configuration.
@Suite struct AppStoreServicesTests {
    @Test func theGatewaysClientUsesTheConfiguredEndpointsAndSecret() throws {
        var configuration = Configuration()
        configuration.appStoreProductionURL = "http://127.0.0.1:9000/verifyReceipt"
        configuration.appStoreSharedSecret = "abc"
        let services = try AppStoreServices.from(configuration, counters: { _ in })
        #expect(services.receipts.configuration.productionURL.absoluteString == "http://127.0.0.1:9000/verifyReceipt")
        #expect(services.receipts.configuration.sandboxURL == VerifyReceiptConfiguration.appleSandboxURL)
        #expect(services.receipts.configuration.sharedSecret == "abc")
        #expect(services.signedData == nil, "no roots configured: V2 refused")
    }
}
