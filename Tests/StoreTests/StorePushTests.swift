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

    @Test(arguments: StoreBackend.all)
    func theOutboxGoesOldestFirstAndALeaseKeepsOtherProcessesOff(_ backend: StoreBackend) throws {
        let opened = try backend.openWithCatalog()
        defer { withExtendedLifetime(opened) {} }
        let store = opened.store
        for id in ["a1", "a2"] { try store.createAccount(Fixtures.account(id)) }
        _ = try store.give(Grant(grantId: "g1", accountId: "a1", source: "print", externalId: "1", publications: ["monthly"],
                             start: Fixtures.t0, end: nil, createdAt: Fixtures.t0), events: Self.events)
        _ = try store.give(Grant(grantId: "g2", accountId: "a2", source: "print", externalId: "2", publications: ["monthly"],
                             start: Fixtures.t0, end: nil, createdAt: Fixtures.t0), events: Self.events)
        let now = Fixtures.t0
        guard case .deliver(let first) = try store.claimOutboxHead(owner: "A", now: now, lease: .seconds(60)) else {
            Issue.record("the oldest event is handed out"); return
        }
        #expect(first.accountId == "a1" && first.kind == .entitlementChanged)
        // Another process: the head is leased, and nothing behind it may overtake it.
        #expect(try store.claimOutboxHead(owner: "B", now: now.adding(seconds: 1), lease: .seconds(60))
                == .wait(until: now.adding(seconds: 60)))
        try store.outboxFailed(first, next: now.adding(seconds: 5))
        #expect(try store.claimOutboxHead(owner: "B", now: now.adding(seconds: 2), lease: .seconds(60))
                == .wait(until: now.adding(seconds: 5)), "a failed event waits for its next attempt, and keeps its place")
        guard case .deliver(let again) = try store.claimOutboxHead(owner: "B", now: now.adding(seconds: 5), lease: .seconds(60)) else {
            Issue.record("due again"); return
        }
        #expect(again.seq == first.seq && again.attempts == 1)
        try store.outboxDelivered(again)
        guard case .deliver(let second) = try store.claimOutboxHead(owner: "A", now: now.adding(seconds: 6), lease: .seconds(60)) else {
            Issue.record("the next event"); return
        }
        #expect(second.accountId == "a2")
        try store.outboxDelivered(second)
        #expect(try store.claimOutboxHead(owner: "A", now: now.adding(seconds: 7), lease: .seconds(60)) == .empty)
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
        let targets = try store.pushTargets(["a1"])
        #expect(targets.first?.devices.count == 1 && targets.first?.facts.transactions.count == 1)
    }
}
