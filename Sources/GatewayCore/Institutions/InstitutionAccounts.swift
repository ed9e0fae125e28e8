import GatewayStore
import Synchronization
import Wire

/// E30: "History sources `print` and `institution` record what each gave". The first time an
/// institution's grant is given to an account on an account route, the account's history gains
/// one `grantGiven` event (source `institution`), written with the pair's row
/// (`GatewayStore.recordInstitutionAccount`), so once per (account, institution) across
/// processes. The pairs known to be recorded are kept in memory, within `rememberedBytes`, so a
/// covered reader's lists, answered often, neither read nor write the store for this; a pair
/// that fell out costs one read. May read and write the store: never on an event loop.
package final class InstitutionAccounts: Sendable {
    /// The memory the recorded pairs may hold (about 30,000 pairs; one falling out costs a read).
    package static let rememberedBytes = 8 << 20

    private struct Pair: Hashable {
        let accountId: String
        let institutionId: String
    }

    private let store: any GatewayStore
    private let clock: any GatewayClock
    private let remembered = Mutex(ByteBudgetLRU<Pair, Bool>(budget: InstitutionAccounts.rememberedBytes))

    package init(store: any GatewayStore, clock: any GatewayClock) {
        self.store = store; self.clock = clock
    }

    /// Records that `institution`'s grant was given to `accountId`'s answer for a client at
    /// `address` (4 or 16 bytes), unless that pair was recorded before.
    package func record(_ institution: Institution, givenTo accountId: String, address: [UInt8]) throws(GatewayError) {
        let pair = Pair(accountId: accountId, institutionId: institution.institutionId)
        if remembered.withLock({ $0.value(for: pair) }) != nil { return }
        try stored { () throws(StoreError) in
            if try store.institutionAccount(accountId: accountId, institutionId: institution.institutionId) == nil {
                let record = InstitutionAccount(accountId: accountId, institutionId: institution.institutionId,
                                                firstSeen: clock.now(), address: IPAddress.text(address))
                _ = try store.recordInstitutionAccount(record)
            }
        }
        remembered.withLock {
            _ = $0.insert(true, for: pair, bytes: MemoryFootprint.string(pair.accountId) + MemoryFootprint.string(pair.institutionId))
        }
    }
}
