import Testing
import Entitle
import GatewayStore
import TestSupport

/// The store's customer behind a subscription (`store_customers`) on every backend: named again
/// it stays; named anew it moves, though the write skips a row already holding its value.
@Suite struct StoreCustomerTests {
    @Test(arguments: StoreBackend.all)
    func aSubscriptionsCustomerNamedAgainStaysAndNamedAnewMoves(_ backend: StoreBackend) throws {
        let opened = try backend.open()
        let store = opened.store
        let key = SubscriptionKey(store: .stripe, environment: .production, originalTransactionId: "sub_1")
        func subscriptions(of customer: String) throws -> [SubscriptionKey] {
            try store.read { tx throws(StoreError) in
                try tx.subscriptions(ofCustomer: customer, store: .stripe, environment: .production)
            }
        }
        try store.write { tx throws(StoreError) in
            try tx.setCustomer("cus_A", of: key)
            try tx.setCustomer("cus_A", of: key)
        }
        #expect(try subscriptions(of: "cus_A") == [key])
        try store.write { tx throws(StoreError) in try tx.setCustomer("cus_B", of: key) }
        #expect(try subscriptions(of: "cus_A") == [])
        #expect(try subscriptions(of: "cus_B") == [key])
    }
}
