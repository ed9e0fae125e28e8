import GatewayStore
import Lifecycle
import Synchronization
import Wire

/// E30: "History sources `print` and `institution` record what each gave". The first time an
/// institution's grant is given to an account on an account route, the account's history gains
/// one `grantGiven` event (source `institution`), written with the pair's row
/// (`GatewayStore.recordInstitutionAccount`), so once per (account, institution) across
/// processes. The write is queued on `work`, never made by the request that gave the grant (a
/// reader's list or token stays a read); the account's history and explanations wait for the
/// account's queued records first (`settle`), so what was given is there when asked. The pairs
/// known to be recorded are kept in memory, within `rememberedBytes`, so a covered reader's
/// requests, answered often, neither read nor write the store for this; a pair that fell out
/// costs one read on the queue.
package final class InstitutionAccounts: Sendable {
    /// The memory the recorded pairs may hold (about 30,000 pairs; one falling out costs a read).
    package static let rememberedBytes = 8 << 20
    /// The longest a history read waits for the account's queued records.
    package static let settleWait: Duration = .seconds(2)

    private struct Pair: Hashable {
        let accountId: String
        let institutionId: String
    }

    /// Records queued, the first being written; `draining` while a job on `work` writes them.
    private struct Queue {
        var records: [InstitutionAccount] = []
        var draining = false

        func holds(_ pair: Pair) -> Bool {
            records.contains { $0.accountId == pair.accountId && $0.institutionId == pair.institutionId }
        }
    }

    private let store: any GatewayStore
    private let clock: any GatewayClock
    private let work: WorkPool
    private let remembered = Mutex(ByteBudgetLRU<Pair, Bool>(budget: InstitutionAccounts.rememberedBytes))
    private let queue = Condition(Queue())

    package init(store: any GatewayStore, clock: any GatewayClock, work: WorkPool) {
        self.store = store; self.clock = clock; self.work = work
    }

    /// Queues the record that `institution`'s grant was given to `accountId`'s answer for a client
    /// at `address` (4 or 16 bytes), unless that pair was recorded or queued before. Records are
    /// written one at a time in the order given, so an account's history lists its institutions
    /// in the order they gave. A record that could not be queued or written is tried again by the
    /// pair's next request.
    package func record(_ institution: Institution, givenTo accountId: String, address: [UInt8]) {
        let pair = Pair(accountId: accountId, institutionId: institution.institutionId)
        if remembered.withLock({ $0.value(for: pair) }) != nil { return }
        let record = InstitutionAccount(accountId: accountId, institutionId: institution.institutionId,
                                        firstSeen: clock.now(), address: IPAddress.text(address))
        let startsDrain = queue.withLock { q -> Bool in
            guard !q.holds(pair) else { return false }
            q.records.append(record)
            guard !q.draining else { return false }
            q.draining = true
            return true
        }
        guard startsDrain, !work.submit({ [self] in drain() }) else { return }
        queue.withLock { $0 = Queue() }
        queue.broadcast()
    }

    /// Waits (at most `settleWait`) until the records queued for `accountId` are written.
    package func settle(_ accountId: String) {
        queue.withLock(when: { !$0.records.contains { $0.accountId == accountId } }, timeout: Self.settleWait) { _ in }
    }

    /// Writes the queued records in order until none is left.
    private func drain() {
        while let next = queue.withLock({ q -> InstitutionAccount? in
            if q.records.isEmpty { q.draining = false }
            return q.records.first
        }) {
            if (try? write(next)) != nil { remember(Pair(accountId: next.accountId, institutionId: next.institutionId)) }
            queue.withLock { _ = $0.records.removeFirst() }
            queue.broadcast()
        }
    }

    private func write(_ record: InstitutionAccount) throws(StoreError) {
        if try store.institutionAccount(accountId: record.accountId, institutionId: record.institutionId) == nil {
            _ = try store.recordInstitutionAccount(record)
        }
    }

    private func remember(_ pair: Pair) {
        remembered.withLock {
            _ = $0.insert(true, for: pair, bytes: MemoryFootprint.string(pair.accountId) + MemoryFootprint.string(pair.institutionId))
        }
    }
}
