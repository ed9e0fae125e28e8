import GatewayCrypto
import GatewayStore
import Wire

/// E33: link codes, 8 characters from an alphabet without look-alikes, single use, valid 15
/// minutes, stored only as the hash of their canonical form.
package struct LinkCodes: Sendable {
    /// 32 letters and digits (no I, O, 0, 1): each random byte's low 5 bits pick one, unbiased.
    package static let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    package static let length = 8
    package static let lifetimeSeconds: Int64 = 15 * 60
    /// A code hash taken already (40 bits drawn twice) is drawn again, at most this often.
    private static let attempts = 4

    private let store: any GatewayStore
    private let identifiers: Identifiers
    private let clock: any GatewayClock

    package init(store: any GatewayStore, identifiers: Identifiers, clock: any GatewayClock) {
        self.store = store; self.identifiers = identifiers; self.clock = clock
    }

    /// A new code for the account, shown once; creating one never ends another.
    package func create(for accountId: String) throws(GatewayError) -> (code: String, expiresAt: Instant) {
        let now = clock.now()
        let expiresAt = now.adding(seconds: Self.lifetimeSeconds)
        for _ in 0..<Self.attempts {
            let bytes: [UInt8]
            do { bytes = try identifiers.random.randomBytes(count: Self.length) } catch { throw .failed("no randomness available") }
            let code = String(bytes.map { Self.alphabet[Int($0 & 0x1f)] })
            let record = LinkCode(codeHash: try hash(code), accountId: accountId, createdAt: now, expiresAt: expiresAt)
            if try stored({ () throws(StoreError) in try store.write { tx throws(StoreError) in try tx.insert(record) } }) {
                return (code, expiresAt)
            }
        }
        throw .failed("no free link code was drawn")
    }

    /// readers.md, Decisions: spaces and hyphens are ignored, letters folded to upper case.
    package static func canonical(_ code: String) -> String {
        String(code.filter { $0 != " " && $0 != "-" }.uppercased())
    }

    /// The hash a code is stored and found by.
    package func hash(_ code: String) throws(GatewayError) -> String {
        try identifiers.hash(Self.canonical(code))
    }
}
