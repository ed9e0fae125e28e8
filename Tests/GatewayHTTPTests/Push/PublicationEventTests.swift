import Entitle
import Foundation
@testable import GatewayConfiguration
@testable import GatewayPush
import GatewayStore
import IssueCatalog
import TestSupport
import Testing
import Wire
import GatewayTesting

/// Publication events (http-api.md, pushes and webhooks): an issue announced when it is
/// published, once, to the devices of the accounts the engine entitles to it (E12–E22).
@Suite struct PublicationEventTests {
    static func instant(_ text: String) -> Instant { Instant(rfc3339: text)! }

    static func subscription(_ id: String, from: String, to: String, refunded: String? = nil) -> Transaction {
        Transaction(environment: .production, transactionId: id, originalTransactionId: id, productId: "monthly.1m",
                    purchaseDate: instant(from), expiresDate: instant(to), revocationDate: refunded.map(instant),
                    source: .receipt)
    }

    /// The March issue of `monthly`, published at once (the harness clock stands at 2026-03-01).
    static let march = H.issueBody(id: "2026-03", publishedAt: "2026-03-01T00:00:00Z", paths: ["/content/monthly/2026-03/issue.pdf"])

    @Test func aPublishedIssueGoesToEveryDeviceOfEntitledAccountsAndNoOtherOnce() throws {
        let key = try APNsTestKey()
        let h = try H.withPushes(apnsKeyPath: key.path)
        try h.seedCatalog()
        let store = h.runtime.core.store
        let active = try h.createAccount(), grace = try h.createAccount(), refunded = try h.createAccount()
        let stranger = try h.createAccount(), granted = try h.createAccount(), deviceless = try h.createAccount()
        try h.save(active.id, transactions: [Self.subscription("s-active", from: "2026-02-15T00:00:00Z", to: "2026-03-15T00:00:00Z")])
        // E8: expired 2026-02-25, in Apple's grace period until 2026-03-10 when March comes out.
        try h.save(grace.id, transactions: [Self.subscription("s-grace", from: "2026-01-25T00:00:00Z", to: "2026-02-25T00:00:00Z")],
                   renewals: [RenewalInfo(environment: .production, originalTransactionId: "s-grace", productId: "monthly.1m",
                                          autoRenewStatus: true, isInBillingRetry: true,
                                          gracePeriodExpiresDate: Self.instant("2026-03-10T00:00:00Z"), source: .receipt)])
        // E6: refunded, so as if never bought.
        try h.save(refunded.id, transactions: [Self.subscription("s-refunded", from: "2026-02-15T00:00:00Z", to: "2026-03-15T00:00:00Z",
                                                                 refunded: "2026-02-20T00:00:00Z")])
        try h.save(deviceless.id, transactions: [Self.subscription("s-nodevice", from: "2026-02-15T00:00:00Z", to: "2026-03-15T00:00:00Z")])
        #expect(try h.client.post("/v1/accounts/\(granted.id)/grants", as: H.adminKey,
                                  json: #"{"source":"print","externalId":"p1","publications":["monthly"],"start":"2026-01-01T00:00:00Z"}"#).status == 201)
        let activePhone = try h.registerDevice(active, 1), activeTablet = try h.registerDevice(active, 2, environment: "sandbox")
        let gracePhone = try h.registerDevice(grace, 3)
        _ = try h.registerDevice(refunded, 4)
        _ = try h.registerDevice(stranger, 5)
        let grantPhone = try h.registerDevice(granted, 6)

        let sender = RecordingPushSender()
        var small = PushFanOut.Settings()
        small.pageSize = 2  // several pages, each resumed from the stored cursor
        let fanOut = PushFanOut(settings: small, delivery: h.runtime.core.delivery, sender: sender)
        try h.drainPushJobs(fanOut)  // the seeded issues, announced as they were posted
        let seeded = sender.pushes.count

        #expect(try h.client.post("/v1/publications/monthly/issues", as: H.adminKey, json: Self.march).status == 201)
        let ref = IssueRef(publicationId: "monthly", issueId: "2026-03")
        #expect(try store.isAnnounced(ref), "published at once: announced by the route")
        try h.drainPushJobs(fanOut)
        let march = sender.pushes.dropFirst(seeded).filter { $0.issue == ref }
        #expect(Set(march.map(\.device.apnsToken)) == [activePhone, activeTablet, gracePhone, grantPhone])
        #expect(march.count == 4, "one push per device")
        #expect(march.first { $0.device.apnsToken == activeTablet }?.device.environment == .sandbox)
        // The webhook event went into the outbox with the announcement.
        #expect(try Self.outboxEventIds(store).contains("issue.published/monthly/2026-03"))
        // Correcting it later announces nothing again.
        #expect(try h.client.put("/v1/publications/monthly/issues/2026-03", as: H.adminKey,
                                 json: Self.march.replacingOccurrences(of: "Issue 2026-03", with: "March")).status == 200)
        try h.drainPushJobs(fanOut)
        #expect(sender.pushes.dropFirst(seeded).filter { $0.issue == ref }.count == 4)
    }

    @Test func aScheduledIssueIsAnnouncedWhenItsTimeComesOnceAcrossProcessesAndRestarts() throws {
        let key = try APNsTestKey()
        let h = try H.withPushes(apnsKeyPath: key.path)
        try h.seedCatalog()
        let april = IssueRef(publicationId: "monthly", issueId: "2026-04")
        let counters = h.runtime.core.pushCounters
        let first = try PublicationAnnouncer(store: h.runtime.core.store, clock: h.clock, policy: h.runtime.core.events,
                                             counters: counters, poll: .seconds(3600))
        // Until 2026-04-01 it waits, and says how long.
        let wait = try first.step()
        #expect(try !h.runtime.core.store.isAnnounced(april))
        #expect(wait == .seconds(3600), "the next issue is a month away: the poll interval bounds the sleep")
        h.clock.set(Self.instant("2026-03-31T23:59:59Z"))
        #expect(try first.step() == .seconds(1), "it sleeps exactly until the issue's time")
        #expect(try !h.runtime.core.store.isAnnounced(april))
        // Time comes; two processes (two stores on one file) and a restarted one all look at once.
        h.clock.set(Self.instant("2026-04-01T00:00:00Z"))
        let stores = [try h.database.open(), try h.database.open(), try h.database.open()]
        let announcers = try stores.map { store in
            try PublicationAnnouncer(store: store, clock: h.clock, policy: h.runtime.core.events, counters: counters)
        }
        DispatchQueue.concurrentPerform(iterations: announcers.count) { index in _ = try? announcers[index].step() }
        _ = try first.step()
        #expect(try h.runtime.core.store.isAnnounced(april))
        let jobs = try h.runtime.core.store.openPushJobs().filter { $0.issue == april }
        #expect(jobs.count == 1, "fired once")
        #expect(try Self.outboxEventIds(h.runtime.core.store).filter { $0 == "issue.published/monthly/2026-04" }.count == 1)
    }

    @Test func issuesPublishedBeforeEventsWereTurnedOnAreNeverAnnounced() throws {
        let quiet = try H()
        try quiet.seedCatalog()
        #expect(try quiet.runtime.core.store.outboxLength() == 0)
        #expect(quiet.runtime.pushServices.isEmpty)
        #expect(try quiet.runtime.core.store.openPushJobs().isEmpty)
        // The same database, now with pushes: history stays quiet, the scheduled issue will go.
        let store = try quiet.database.open()
        let policy = EventPolicy(webhooks: true, pushes: true)
        let announcer = try PublicationAnnouncer(store: store, clock: quiet.clock, policy: policy, counters: quiet.runtime.core.pushCounters)
        _ = try announcer.step()
        #expect(try store.openPushJobs().isEmpty && store.outboxLength() == 0)
        quiet.clock.set(Self.instant("2026-04-02T00:00:00Z"))
        _ = try announcer.step()
        #expect(try store.openPushJobs().map(\.issue) == [IssueRef(publicationId: "monthly", issueId: "2026-04")])
    }

    static func outboxEventIds(_ store: any GatewayStore) throws -> [String] {
        try store.outboxEvents(limit: 10_000).map(\.eventId)
    }
}
