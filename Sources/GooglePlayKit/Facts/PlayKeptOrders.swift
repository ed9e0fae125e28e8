import Entitle
import Foundation
import Wire

/// What the gateway stored of a chain's orders before this fetch (E1): the facts a fetch that the
/// Orders API refuses cannot see again, so it must not lose them. Pure.
public struct PlayKeptOrders: Sendable {
    private let byOrder: [String: Transaction]

    /// The stored transactions of the chain's orders (Google Play's, any environment).
    public init(_ transactions: [Transaction]) {
        byOrder = Dictionary(transactions.filter { $0.store == .googlePlay }.map { ($0.transactionId, $0) },
                             uniquingKeysWith: { a, _ in a })
    }

    /// E25: the stored orders among `ids` whose period the Orders API reported, as it answered
    /// them: "the reported period wins when the gateway has it", so they are never rebuilt from
    /// snapshots, and orders built after them start where they end.
    public func reported(among ids: [String], token: String) -> [PlayOrder] {
        ids.compactMap { byOrder[$0] }.filter { !$0.periodBuilt }.map { t in
            PlayOrder(orderId: t.transactionId, purchaseToken: token, state: .processed, createTime: nil,
                      productId: t.productId, servicePeriodStart: t.purchaseDate, servicePeriodEnd: t.expiresDate,
                      offerPhase: PlayFacts.offerPhase(t.offer), refundTime: nil, refundIsChargeback: false)
        }
    }

    /// E24: the stored void of an order (its voided purchase, its notification, an order
    /// `REFUNDED`): Google never reverses one, so a later description without it keeps it.
    public func void(of orderId: String) -> Transaction? {
        guard let t = byOrder[orderId], t.revocationKind == .void, t.revocationDate != nil else { return nil }
        return t
    }
}
