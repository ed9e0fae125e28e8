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

    /// Every subscription with auto-renew on that is unexpired at `now`, in billing retry or in
    /// grace (readers.md, Decisions), ordered by store and subscription. `packageOf` names a Google
    /// Play subscription's app package.
    package static func subscriptions(of deleted: DeletedAccount, catalog: CatalogSnapshot, now: Instant,
                                      packageOf: (SubscriptionKey) -> String?) -> [StillBilling] {
        let latest = Dictionary(grouping: deleted.transactions, by: \.subscriptionKey).compactMapValues { transactions in
            transactions.max { ($0.expiresDate ?? $0.purchaseDate, $0.purchaseDate) < ($1.expiresDate ?? $1.purchaseDate, $1.purchaseDate) }
        }
        return deleted.renewalInfos.sorted { $0.subscriptionKey < $1.subscriptionKey }.compactMap { renewal in
            guard renewal.autoRenewStatus, let transaction = latest[renewal.subscriptionKey] else { return nil }
            let unexpired = transaction.expiresDate.map { now < $0 } ?? false
            let inGrace = renewal.gracePeriodExpiresDate.map { now < $0 } ?? false
            guard unexpired || inGrace || renewal.isInBillingRetry else { return nil }
            let storeProductId = transaction.productId
            let productId = catalog.product(renewal.store, storeProductId: storeProductId)?.id ?? storeProductId
            return StillBilling(store: renewal.store, productId: productId, expiresAt: transaction.expiresDate,
                                manageURL: manageURL(renewal.store, storeProductId: storeProductId,
                                                     package: packageOf(renewal.subscriptionKey)))
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
