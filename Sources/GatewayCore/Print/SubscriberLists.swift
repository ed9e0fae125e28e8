import Entitle
import GatewayStore
import Wire

/// E29's lists (http-api.md `PUT` and `PATCH /v1/publications/{publicationId}/subscribers`): a
/// list is read as it arrives and applied in batches of `batchSize` rows, so a list of a million
/// rows holds one batch in memory and the store's writer for one batch at a time. Verification
/// values are hashed before anything is stored. A whole list then ends the subscribers it did not
/// name, at its time. A publication's lists are applied one at a time, in every process
/// (`SubscriberListLock`); a list's time is when its turn came.
package struct SubscriberLists: Sendable {
    /// Rows per unit of work: large enough that a commit's cost is shared, small enough that other
    /// writers wait at most a fraction of a second.
    package static let batchSize = 1000
    /// Subscribers ended per unit of work after a whole list.
    package static let endingBatchSize = 5000
    /// Lists the console shows.
    package static let recentImports = 50

    let store: any GatewayStore
    private let accounts: AccountFactsCache
    private let hasher: VerificationHasher
    private let identifiers: Identifiers
    private let events: EventPolicy
    private let clock: any GatewayClock
    private let lock: SubscriberListLock

    package init(store: any GatewayStore, accounts: AccountFactsCache, hasher: VerificationHasher, identifiers: Identifiers,
                 events: EventPolicy, clock: any GatewayClock) {
        self.store = store; self.accounts = accounts; self.hasher = hasher; self.identifiers = identifiers
        self.events = events; self.clock = clock
        lock = SubscriberListLock(store: store, clock: clock)
    }

    /// Reads and applies one list. `body` hands the list's bytes to its argument piece by piece.
    package func receive(_ kind: SubscriberListKind, publicationId: String, format: SubscriberListFormat,
                         body: ((UnsafeRawBufferPointer) throws(GatewayError) -> Void) throws(GatewayError) -> Void)
        throws(GatewayError) -> SubscriberListCounts {
        let listId = "list-" + (try identifiers.newIdentifier())
        try lock.take(publicationId: publicationId, listId: listId)
        defer { lock.release(publicationId: publicationId, listId: listId) }
        var list = SubscriberImport(listId: listId, publicationId: publicationId, kind: kind, receivedAt: clock.now())
        try stored { () throws(StoreError) in try store.record(list) }
        var counts = SubscriberListCounts()
        do throws(GatewayError) {
            try readAndApply(kind, body: body, format: format, to: list, into: &counts)
        } catch {
            // Refused part way: its end is recorded with what it applied and why, so that the
            // console does not show it running for ever (best effort: the store may be what failed).
            list.counts = counts
            list.finishedAt = clock.now()
            list.refusal = error.message
            _ = try? stored { () throws(StoreError) in try store.record(list) }
            throw error
        }
        counts.rejected.sort { $0.line < $1.line }
        list.counts = counts
        list.finishedAt = clock.now()
        try stored { () throws(StoreError) in try store.record(list) }
        return counts
    }

    /// Reads the list and applies its batches, then (a whole list) ends whom it did not name.
    private func readAndApply(_ kind: SubscriberListKind,
                              body: ((UnsafeRawBufferPointer) throws(GatewayError) -> Void) throws(GatewayError) -> Void,
                              format: SubscriberListFormat, to list: SubscriberImport,
                              into counts: inout SubscriberListCounts) throws(GatewayError) {
        let publicationId = list.publicationId
        // Handed back however it ends: a refusal records what was applied before it.
        var applied = SubscriberListCounts()
        defer { counts = applied }
        var reader = SubscriberListReader(format: format)
        var batch: [ListedSubscriber] = []
        batch.reserveCapacity(Self.batchSize)
        let take = { (line: ListLine) throws(GatewayError) in
            switch line {
            case .rejected(let number, let error): applied.reject(line: number, error.message)
            case .row(let row):
                let hash: String
                do { hash = try hasher.hash(publicationId: publicationId, customerNumber: row.customerNumber,
                                            verification: row.verification) } catch { throw .failed("hashing failed") }
                batch.append(ListedSubscriber(customerNumber: row.customerNumber, verificationHash: hash, terms: row.terms,
                                              line: row.line))
                if batch.count >= Self.batchSize { try apply(&batch, of: list, into: &applied) }
            }
        }
        try body { (bytes) throws(GatewayError) in
            try Self.feed(&reader, bytes, take)
        }
        try Self.finish(&reader, take)
        if let header = reader.headerError { throw .invalid(header) }
        try apply(&batch, of: list, into: &applied)
        // A rejected line rejects that line and nothing else (http-api.md): its subscriber, whose
        // number may not even be readable, must not be ended as "missing", so a whole list with a
        // rejected line ends nobody; the publisher sends it again corrected.
        if kind == .whole && applied.rejectedCount == 0 {
            while true {
                let step = try Self.held(list, try stored { () throws(StoreError) in
                    try store.endMissing(from: list, limit: Self.endingBatchSize, holding: lock.lease(), events: events)
                })
                accounts.invalidate(step.touchedAccounts)
                applied.add(step.counts)
                if step.counts.ended < Self.endingBatchSize { break }
            }
        }
    }

    private func apply(_ batch: inout [ListedSubscriber], of list: SubscriberImport,
                       into counts: inout SubscriberListCounts) throws(GatewayError) {
        guard !batch.isEmpty else { return }
        let rows = batch
        let lease = lock.lease()
        let step = try Self.held(list, try stored { () throws(StoreError) in
            try store.apply(rows, of: list, holding: lease, events: events)
        })
        batch.removeAll(keepingCapacity: true)
        accounts.invalidate(step.touchedAccounts)
        counts.add(step.counts)
    }

    /// E29: a step is nil when another list of the publication took its lock over (the hold ran
    /// out): nothing of it was applied.
    private static func held(_ list: SubscriberImport, _ step: SubscriberListStep?) throws(GatewayError) -> SubscriberListStep {
        guard let step else { throw .conflict("another list of publication \(list.publicationId) is being applied") }
        return step
    }

    private static func feed(_ reader: inout SubscriberListReader, _ bytes: UnsafeRawBufferPointer,
                             _ take: (ListLine) throws(GatewayError) -> Void) throws(GatewayError) {
        do { try reader.feed(bytes) { line in try take(line) } } catch let error as GatewayError { throw error } catch {
            throw .failed("reading the list failed")
        }
    }

    private static func finish(_ reader: inout SubscriberListReader,
                               _ take: (ListLine) throws(GatewayError) -> Void) throws(GatewayError) {
        do { try reader.finish { line in try take(line) } } catch let error as GatewayError { throw error } catch {
            throw .failed("reading the list failed")
        }
    }
}
