#if canImport(StoreKit)
import Foundation
import StoreKit

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension IssueGatewayClient {
    /// Posts one transaction StoreKit handed over (the result of `Product.purchase`, or an update)
    /// as its signed JWS, then finishes it: only once the gateway has it, so a failed post is
    /// delivered again by StoreKit and tried again.
    ///
    /// Buy with the session's ``Session/appAccountToken`` so that the store's later notifications
    /// (renewals, refunds) reach this account:
    /// ```swift
    /// let options: Set<Product.PurchaseOption> = session.appAccountToken.map { [.appAccountToken($0)] } ?? []
    /// if case .success(let result) = try await product.purchase(options: options) {
    ///     entitlements = try await gateway.post(result)
    /// }
    /// ```
    @discardableResult
    public func post(_ result: VerificationResult<StoreKit.Transaction>) async throws(IssueGatewayError) -> Entitlements {
        let entitlements = try await postSignedTransactions([result.jwsRepresentation])
        await result.unsafePayloadValue.finish()
        return entitlements
    }

    /// Restores purchases: posts every transaction StoreKit verified on this device
    /// (`Transaction.all`, in batches), or asks the gateway to refresh when there are none. Call
    /// `AppStore.sync()` first when the reader taps "Restore" on a new device.
    public func restorePurchases() async throws(IssueGatewayError) -> Entitlements {
        var signed: [String] = []
        for await result in StoreKit.Transaction.all {
            if case .verified = result { signed.append(result.jwsRepresentation) }
        }
        var entitlements: Entitlements?
        var start = 0
        while start < signed.count {
            let batch = Array(signed[start..<min(start + Self.restoreBatch, signed.count)])
            entitlements = try await postSignedTransactions(batch)
            start += Self.restoreBatch
        }
        if let entitlements { return entitlements }
        return try await refreshEntitlements()
    }

    /// Drains `Transaction.updates` (renewals, purchases made on another device, Ask to Buy
    /// approvals, refunds) for as long as the returned task runs: each is posted and finished,
    /// then `onChange` gets the new entitlements. Start it at launch, before anything else
    /// touches StoreKit; a post that fails is left unfinished and comes back at the next launch.
    @discardableResult
    public func observeTransactionUpdates(onChange: @escaping @Sendable (Entitlements) async -> Void = { _ in })
        -> Task<Void, Never> {
        Task { [self] in
            for await result in StoreKit.Transaction.updates {
                guard let entitlements = try? await post(result) else { continue }
                await onChange(entitlements)
            }
        }
    }

    /// Signed transactions per restore request: well under the gateway's body limit.
    private static var restoreBatch: Int { 50 }
}
#endif
