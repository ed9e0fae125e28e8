import GatewayStore

/// Reader devices for APNs background notifications (http-api.md, devices): registering a known
/// token again changes nothing; an account holds at most `perAccount`.
package struct Devices: Sendable {
    /// At most this many devices per account (http-api.md). Past it a new token is a `conflict`:
    /// the request is well-formed, the account's state refuses it (remove one first).
    package static let perAccount = 20

    private let store: any GatewayStore

    package init(store: any GatewayStore) { self.store = store }

    /// The device as stored and whether this call registered it (false: it was known).
    package func register(_ device: Device) throws(GatewayError) -> (device: Device, created: Bool) {
        switch try stored({ () throws(StoreError) in try store.registerDevice(device, limit: Self.perAccount) }) {
        case .created(let created): return (created, true)
        case .known(let known): return (known, false)
        case .limitReached(let limit):
            throw .conflict("the account has \(limit) devices, the most it may have; remove one first")
        case .unknownAccount:
            throw .notFound("account \(device.accountId)")
        }
    }

    /// `notFound` when the account has no such device.
    package func remove(_ apnsToken: String, ofAccount accountId: String) throws(GatewayError) {
        guard try stored({ () throws(StoreError) in try store.removeDevice(apnsToken, ofAccount: accountId) }) else {
            throw .notFound("account \(accountId) has no such device")
        }
    }
}
