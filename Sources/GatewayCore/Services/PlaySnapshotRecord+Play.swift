import GatewayStore
import GooglePlayKit

/// A Google Play subscription snapshot (E25) as the store keeps it: Google's values as Google wrote
/// them, read back into `GooglePlayKit`'s typed snapshot (a state Google adds later reads as
/// unspecified, which serves nothing).
extension PlaySnapshotRecord {
    init(_ s: PlaySnapshot, packageName: String, token: String) {
        self.init(packageName: packageName, purchaseToken: token, observedAt: s.observedAt, state: s.state.rawValue,
                  latestOrderId: s.latestOrderId, expiryTime: s.expiryTime, startTime: s.startTime, productId: s.productId,
                  linkedPurchaseToken: s.linkedPurchaseToken, cancellation: s.cancellation?.rawValue, revokedAt: s.revokedAt)
    }
}

extension PlaySnapshot {
    init(_ r: PlaySnapshotRecord) {
        self.init(observedAt: r.observedAt, state: PlaySubscriptionState(rawValue: r.state) ?? .unspecified,
                  latestOrderId: r.latestOrderId, expiryTime: r.expiryTime, startTime: r.startTime, productId: r.productId,
                  linkedPurchaseToken: r.linkedPurchaseToken, cancellation: r.cancellation.flatMap(PlayCancellation.init(rawValue:)),
                  revokedAt: r.revokedAt)
    }
}
