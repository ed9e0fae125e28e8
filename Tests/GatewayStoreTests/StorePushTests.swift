import Entitle
import GatewayStore
import IssueCatalog
import Testing
import Wire

/// The push and webhook rows as every backend must keep them: the outbox's order and
/// leases, announcements that fire once, and the candidates a push job pages through.
@Suite struct StorePushTests {
    static let events = EventPolicy(webhooks: true, pushes: true)

    static func device(_ account: String, _ n: Int) -> Device {
        Device(accountId: account, apnsToken: String(repeating: "0", count: 63) + String(n), environment: .production,
               registeredAt: Fixtures.t0)
    }

    /// Two events of a1 around one of a2, in that order.
    private func threeEvents(_ store: any GatewayStore) throws {
        for id in ["a1", "a2"] { try store.createAccount(Fixtures.account(id)) }
        for (grantId, account) in [("g1", "a1"), ("g2", "a2"), ("g3", "a1")] {
            _ = try store.give(Grant(grantId: grantId, accountId: account, source: "print", externalId: grantId,
                                     publications: ["monthly"], start: Fixtures.t0, end: nil, createdAt: Fixtures.t0),
                               events: Self.events)
        }
    }

    /// A store on `backend` holding `threeEvents`, and the first of them, leased to "A" at t0.
    private func outboxWithFirstClaimed(_ backend: StoreBackend) throws -> (opened: OpenedStore, first: OutboxEvent) {
        let opened = try backend.openWithCatalog()
        try threeEvents(opened.store)
        guard case .deliver(let first) = try opened.store.claimOutboxHead(owner: "A", now: Fixtures.t0, lease: .seconds(60)) else {
            throw OutboxExpectation.notHandedOut
        }
        return (opened, first)
    }

    enum OutboxExpectation: Error { case notHandedOut }

    @Test(arguments: StoreBackend.all)
    func theOutboxGoesOldestFirstPerAccountAndALeaseKeepsOtherProcessesOff(_ backend: StoreBackend) throws {
        let (opened, first) = try outboxWithFirstClaimed(backend)
        defer { withExtendedLifetime(opened) {} }
        let store = opened.store
        let now = Fixtures.t0
        #expect(first.accountId == "a1" && first.kind == .entitlementChanged)
        // Another process: the head is leased; another account's event goes meanwhile…
        guard case .deliver(let other) = try store.claimOutboxHead(owner: "B", now: now.adding(seconds: 1), lease: .seconds(60)) else {
            Issue.record("another account's event is not held back"); return
        }
        #expect(other.accountId == "a2")
        // …but nothing of a1 may overtake its leased head.
        guard case .wait = try store.claimOutboxHead(owner: "C", now: now.adding(seconds: 1), lease: .seconds(60)) else {
            Issue.record("a1's later event waits behind its head"); return
        }
        try store.outboxDelivered(other)
        try store.outboxFailed(first, failedAt: now, next: now.adding(seconds: 5))
        #expect(try store.claimOutboxHead(owner: "B", now: now.adding(seconds: 2), lease: .seconds(60))
                == .wait(until: now.adding(seconds: 5)), "a failed event waits for its next attempt, and keeps its place")
        guard case .deliver(let again) = try store.claimOutboxHead(owner: "B", now: now.adding(seconds: 5), lease: .seconds(60)) else {
            Issue.record("due again"); return
        }
        #expect(again.seq == first.seq && again.attempts == 1 && again.firstFailedAt == now)
        try store.outboxDelivered(again)
        guard case .deliver(let third) = try store.claimOutboxHead(owner: "A", now: now.adding(seconds: 6), lease: .seconds(60)) else {
            Issue.record("a1's next event"); return
        }
        #expect(third.accountId == "a1" && third.seq > first.seq)
        try store.outboxDelivered(third)
        #expect(try store.claimOutboxHead(owner: "A", now: now.adding(seconds: 7), lease: .seconds(60)) == .empty)
    }

    @Test(arguments: StoreBackend.all)
    func anEventFailingForTooLongIsDeadLetteredAndReplayedAtTheHeadOfItsAccount(_ backend: StoreBackend) throws {
        let (opened, first) = try outboxWithFirstClaimed(backend)
        defer { withExtendedLifetime(opened) {} }
        let store = opened.store
        let now = Fixtures.t0
        let failed = try store.outboxFailed(first, failedAt: now, next: now.adding(seconds: 1), failure: "HTTP 500",
                                            deadLetterAfter: .seconds(10))
        #expect(failed.deadLetteredAt == nil, "not yet failing for ten seconds")
        let dead = try store.outboxFailed(failed, failedAt: now.adding(seconds: 10), next: now.adding(seconds: 20),
                                          failure: "no answer", deadLetterAfter: .seconds(10))
        #expect(dead.deadLetteredAt == now.adding(seconds: 10))
        #expect(try store.deadLetters(limit: 10).map(\.seq) == [first.seq])
        #expect(try store.deadLetters(limit: 10).first?.lastFailure == "no answer")
        #expect(try store.outboxLength() == 2, "a dead letter no longer waits")
        // a1's later event is no longer held back.
        guard case .deliver(let next) = try store.claimOutboxHead(owner: "A", now: now.adding(seconds: 11), lease: .seconds(60)) else {
            Issue.record("the next event"); return
        }
        #expect(next.accountId == "a1" || next.accountId == "a2")
        try store.outboxFailed(next, failedAt: now.adding(seconds: 11), next: now.adding(seconds: 11))
        // Replayed, it heads a1's events again, due at once, counted afresh.
        let replayed = try #require(try store.replayDeadLetter(seq: first.seq, now: now.adding(seconds: 12)))
        #expect(replayed.attempts == 0 && replayed.deadLetteredAt == nil && replayed.firstFailedAt == nil)
        #expect(try store.replayDeadLetter(seq: first.seq, now: now.adding(seconds: 12)) == nil, "not a dead letter any more")
        #expect(try store.deadLetters(limit: 10).isEmpty)
        guard case .deliver(let head) = try store.claimOutboxHead(owner: "A", now: now.adding(seconds: 12), lease: .seconds(60)) else {
            Issue.record("the replayed event"); return
        }
        #expect(head.seq == first.seq)
    }

    @Test(arguments: StoreBackend.all)
    func anIssueIsAnnouncedOnceAndHistoryIsSkipped(_ backend: StoreBackend) throws {
        let opened = try backend.openWithCatalog()
        defer { withExtendedLifetime(opened) {} }
        let store = opened.store
        let now = Fixtures.instant("2026-01-01T00:00:00Z")
        try store.preparePublicationEvents(now: now)
        #expect(try store.announceDueIssues(now: now, policy: Self.events, limit: 10).isEmpty, "published before: skipped")
        try store.insertIssue(Issue(publicationId: "weekly", id: "w2", title: "Week 2", publishedAt: now.adding(seconds: 60)))
        #expect(try store.nextUnannouncedPublication(after: now) == now.adding(seconds: 60))
        #expect(try store.announceDueIssues(now: now, policy: Self.events, limit: 10).isEmpty, "not yet")
        let later = now.adding(seconds: 60)
        #expect(try store.announceDueIssues(now: later, policy: Self.events, limit: 10).map(\.id) == ["w2"])
        #expect(try store.announceDueIssues(now: later, policy: Self.events, limit: 10).isEmpty, "once")
        #expect(try store.openPushJobs().map(\.issue.issueId) == ["w2"])
        #expect(try store.outboxEvents(limit: 10).map(\.eventId) == ["issue.published/weekly/w2"])
        #expect(try store.nextUnannouncedPublication(after: later) == nil)
    }

    @Test(arguments: StoreBackend.all)
    func pushCandidatesAreOwnersOfGrantingProductsAndGrantHoldersWithDevicesPaged(_ backend: StoreBackend) throws {
        let opened = try backend.openWithCatalog()
        defer { withExtendedLifetime(opened) {} }
        let store = opened.store
        for id in ["a1", "a2", "a3", "a4", "a5"] { try store.createAccount(Fixtures.account(id)) }
        _ = try store.ingest(IngestBatch(accountId: "a1", transactions: [Fixtures.transaction("t1", original: "t1")], at: Fixtures.t0),
                             policy: .transfer)
        _ = try store.ingest(IngestBatch(accountId: "a2", transactions: [Fixtures.transaction("t2", original: "t2", product: "bundle")],
                                         at: Fixtures.t0), policy: .transfer)
        _ = try store.give(Grant(grantId: "g3", accountId: "a3", source: "print", externalId: "3", publications: ["monthly"],
                             start: Fixtures.t0, end: nil, createdAt: Fixtures.t0))
        _ = try store.give(Grant(grantId: "g4", accountId: "a4", source: "print", externalId: "4", publications: ["weekly"],
                             start: Fixtures.t0, end: nil, createdAt: Fixtures.t0))
        for (n, id) in ["a1", "a2", "a3", "a4", "a5"].enumerated() {
            _ = try store.registerDevice(Self.device(id, n), limit: 20)
        }
        let monthly = PushAudience(publicationId: "monthly", productIds: ["bundle", "monthly.1m"], everyone: false)
        #expect(try store.pushCandidates(monthly, after: nil, limit: 10) == ["a1", "a2", "a3"])
        #expect(try store.pushCandidates(monthly, after: nil, limit: 2) == ["a1", "a2"])
        #expect(try store.pushCandidates(monthly, after: "a2", limit: 2) == ["a3"])
        let free = PushAudience(publicationId: "monthly", productIds: [], everyone: true)
        #expect(try store.pushCandidates(free, after: "a3", limit: 10) == ["a4", "a5"])
        let targets = try store.pushTargets(["a3", "a1"])
        #expect(targets.map(\.accountId) == ["a3", "a1"] && targets.map(\.devices.count) == [1, 1])
        // A page's facts in one unit of work, as each account's own read gives them.
        let facts = try store.accountFacts(["a1", "a3", "nobody"])
        #expect(facts.count == 3)
        for id in ["a1", "a3", "nobody"] { #expect(facts[id] == (try store.accountFacts(id)), "\(id)") }
        #expect(facts["a1"]?.facts.transactions.count == 1 && facts["a3"]?.facts.grants.count == 1)
        #expect(facts["nobody"]?.facts == AccountFacts())
    }
}
