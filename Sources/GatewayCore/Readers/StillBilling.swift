import Entitle
import Foundation
import GatewayStore
import IssueCatalog
import Wire

/// readers.md E35: a store subscription of a deleted account that will renew, which deletion does
/// not cancel: the reader is told where to cancel it.
package struct StillBilling: Sendable, Equatable {
    package var store: Store
    /// The catalog product's id (the store's own when the catalog does not name it).
    package var productId: String
    package var expiresAt: Instant?
    /// Where the reader manages the subscription; nil for Stripe (the publisher's own portal).
    package var manageURL: String?

    package static let appStoreManageURL = "https://apps.apple.com/account/subscriptions"

    /// Every subscription that will renew (readers.md, Decisions: unexpired with auto-renew on,
    /// billing retry and grace included), as E19's `willRenew` says of the deleted account's
    /// facts: one rule for the entitlements answer and this one. Ordered as the engine orders
    /// subscriptions; `packageOf` names a Google Play subscription's app package.
    package static func subscriptions(of statuses: [SubscriptionStatus], catalog: CatalogSnapshot,
                                      packageOf: (SubscriptionKey) -> String?) -> [StillBilling] {
        statuses.filter(\.willRenew).map { status in
            let key = SubscriptionKey(store: status.store, environment: status.environment,
                                      originalTransactionId: status.originalTransactionId)
            let productId = catalog.product(status.store, storeProductId: status.productId)?.id ?? status.productId
            return StillBilling(store: status.store, productId: productId, expiresAt: status.expiresAt,
                                manageURL: manageURL(status.store, storeProductId: status.productId, package: packageOf(key)))
        }
    }

    /// readers.md E35's manage URLs; Google Play's `sku` is the product as Google knows it.
    static func manageURL(_ store: Store, storeProductId: String, package: String?) -> String? {
        switch store {
        case .appStore: return appStoreManageURL
        case .googlePlay:
            guard let package else { return nil }
            return "https://play.google.com/store/account/subscriptions?sku=\(query(storeProductId))&package=\(query(package))"
        case .stripe: return nil
        }
    }

    /// A query value percent-encoded (RFC 3986 §3.4): unreserved characters stay.
    private static func query(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
