import Foundation
import Wire

/// What the gateway fetched about one subscription token at one instant: Google's answer for the
/// token and the orders of it Google knows (E25).
public struct PlayPurchaseSnapshot: Sendable, Equatable {
    public var token: String
    public var purchase: PlaySubscriptionPurchase
    public var orders: [PlayOrder]

    public init(token: String, purchase: PlaySubscriptionPurchase, orders: [PlayOrder]) {
        self.token = token; self.purchase = purchase; self.orders = orders
    }
}
