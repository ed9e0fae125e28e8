import Foundation

extension IssueGatewayClient {
    /// Posts StoreKit 2 signed transactions (each `VerificationResult.jwsRepresentation`); the
    /// gateway verifies them itself (appstore.md). Answers the account's entitlements.
    ///
    /// Finish a StoreKit transaction only after this returns: until then StoreKit delivers it
    /// again, and a post that failed is simply made again.
    public func postSignedTransactions(_ signedTransactions: [String]) async throws(IssueGatewayError) -> Entitlements {
        struct Body: Encodable { var signedTransactions: [String] }
        return try await account(Entitlements.self, "POST", "receipts", body: Body(signedTransactions: signedTransactions))
    }

    /// Posts an App Store receipt (base64, the app's `appStoreReceiptURL` contents) for apps still
    /// on StoreKit 1. Answers the account's entitlements.
    public func postReceipt(_ receiptData: String) async throws(IssueGatewayError) -> Entitlements {
        struct Body: Encodable { var receiptData: String }
        return try await account(Entitlements.self, "POST", "receipts", body: Body(receiptData: receiptData))
    }

    /// Posts a Google Play purchase as the Play Billing Library hands it over; the gateway asks
    /// Google and acknowledges it (E28). Answers the account's entitlements.
    public func postGooglePlayPurchase(packageName: String, productId: String, purchaseToken: String)
        async throws(IssueGatewayError) -> Entitlements {
        struct Body: Encodable { var packageName: String; var productId: String; var purchaseToken: String }
        return try await account(Entitlements.self, "POST", "googleplay", "purchases",
                                 body: Body(packageName: packageName, productId: productId, purchaseToken: purchaseToken))
    }

    /// Redeems an access code from the publisher (E22). Answers the account's entitlements.
    public func redeemCode(_ code: String) async throws(IssueGatewayError) -> Entitlements {
        struct Body: Encodable { var code: String }
        return try await account(Entitlements.self, "POST", "codes", "redeem", body: Body(code: code))
    }

    /// The account's entitlements as the gateway knows them now.
    public func entitlements() async throws(IssueGatewayError) -> Entitlements {
        try await account(Entitlements.self, "GET", "entitlements")
    }

    /// Asks the gateway to ask every store about the account now, then answers its entitlements:
    /// "Restore purchases" on a device with nothing left to post.
    public func refreshEntitlements() async throws(IssueGatewayError) -> Entitlements {
        try await account(Entitlements.self, "POST", "refresh")
    }
}
