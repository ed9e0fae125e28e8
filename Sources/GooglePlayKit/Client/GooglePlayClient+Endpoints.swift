import Foundation
import Wire

/// googleplay.md's calls, typed.
extension GooglePlayClient {
    public func subscription(packageName: String, token: String) throws(GooglePlayError) -> PlaySubscriptionPurchase {
        try parsed(try send(.subscription(token: token), packageName: packageName), PlaySubscriptionPurchase.parse)
    }

    public func product(packageName: String, productId: String, token: String) throws(GooglePlayError) -> PlayProductPurchase {
        try parsed(try send(.product(productId: productId, token: token), packageName: packageName), PlayProductPurchase.parse)
    }

    public func order(packageName: String, orderId: String) throws(GooglePlayError) -> PlayOrder {
        try parsed(try send(.order(orderId), packageName: packageName), PlayOrder.parse)
    }

    /// The orders Google knows among `orderIds`, in their order. `orders:batchGet` fails whole on
    /// one unknown id (googleplay.md), and renewal ids may have holes (declined attempts), so a
    /// batch Google refuses so (404, or 410 for an order it no longer keeps) is asked again one
    /// order at a time, those left out.
    public func orders(packageName: String, orderIds: [String]) throws(GooglePlayError) -> [PlayOrder] {
        var found: [PlayOrder] = []
        var start = 0
        while start < orderIds.count {
            let chunk = Array(orderIds[start..<min(start + GooglePlayRequest.maximumBatchOrders, orderIds.count)])
            start += chunk.count
            do {
                found += try parsed(try send(.orders(chunk), packageName: packageName), PlayOrder.parseBatch)
            } catch .notFound, .gone {
                for id in chunk {
                    do { found.append(try order(packageName: packageName, orderId: id)) } catch .notFound, .gone { continue }
                }
            }
        }
        return found
    }

    /// E28: acknowledges a subscription token or a one-time purchase.
    public func acknowledge(packageName: String, subscription: Bool, productId: String, token: String) throws(GooglePlayError) {
        _ = try send(.acknowledge(subscription: subscription, productId: productId, token: token), packageName: packageName)
    }

    /// Every voided purchase in `[start, end)` (`type=1`: subscriptions too), following pages up to
    /// the configured bound.
    public func voidedPurchases(packageName: String, start: Instant, end: Instant) throws(GooglePlayError) -> [PlayVoidedPurchase] {
        var purchases: [PlayVoidedPurchase] = []
        var pageToken: String?
        for _ in 0..<configuration.maximumVoidedPages {
            let page = try parsed(try send(.voidedPurchases(startMillis: start.millisecondsSinceEpoch,
                                                            endMillis: end.millisecondsSinceEpoch, pageToken: pageToken),
                                           packageName: packageName), PlayVoidedPurchase.parsePage)
            purchases += page.purchases
            guard let next = page.nextPageToken, !next.isEmpty else { return purchases }
            pageToken = next
        }
        throw .malformedResponse("more than \(configuration.maximumVoidedPages) pages of voided purchases")
    }

    private func parsed<T>(_ body: Data, _ parse: (Data) throws(PlayParseError) -> T) throws(GooglePlayError) -> T {
        do { return try parse(body) } catch { throw .malformedResponse(error.description) }
    }
}
