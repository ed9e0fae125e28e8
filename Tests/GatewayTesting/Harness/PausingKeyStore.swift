@testable import GatewayConfiguration
import GatewayStore
import Synchronization
import TestSupport
import Wire

/// A `GatewayStore` that forwards every unit of work to a real store, except that one armed
/// API-key lookup (a read unit of work answering an `APIKey?`, as `apiKey(secretHash:)` does)
/// stops after reading, until the test lets it go: the way to put a request in flight exactly
/// across a key's revocation.
package final class PausingKeyStore: GatewayStore {
    private let base: any GatewayStore
    private let armed = Mutex(false)
    package let lookupRead = Gate()
    package let release = Gate()

    package init(_ base: any GatewayStore) { self.base = base }

    /// The next key lookup pauses after it has read the key.
    package func pauseNextKeyLookup() { armed.withLock { $0 = true } }

    package func read<R>(_ body: (any ReadTransaction) throws(StoreError) -> R) throws(StoreError) -> R {
        let found = try base.read(body)
        if R.self == APIKey?.self, armed.withLock({ let was = $0; $0 = false; return was }) {
            lookupRead.open()
            release.wait(seconds: 10)
        }
        return found
    }

    package func write<R>(_ body: (any WriteTransaction) throws(StoreError) -> R) throws(StoreError) -> R {
        try base.write(body)
    }
}
