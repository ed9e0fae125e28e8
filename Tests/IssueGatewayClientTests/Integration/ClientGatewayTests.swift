import Foundation
import GatewayTesting
import IssueGatewayClient
import Testing
import TestSupport

/// The client against a real gateway on a socket (App Store simulator signing, nginx as CDN):
/// what a reader app does, end to end.
@Suite(.tags(.integration, .sockets, .nginx)) struct ClientGatewayTests {
    @Test func anAnonymousAccountPostsSignedTransactionsAndGetsTypedEntitlements() async throws {
        let world = try ClientWorld()
        let client = world.client()
        let session = try await client.continueAnonymously()
        #expect(session.appAccountToken != nil)
        let entitlements = try await client.postSignedTransactions(try world.signedTransactions())
        #expect(entitlements.accountId == session.accountId)
        let subscription = try #require(entitlements.subscriptions.first)
        #expect(subscription.originalTransactionId == "10000")
        #expect(subscription.productId == "monthly.1m")
        #expect(subscription.state == .active)
        #expect(subscription.grants == ["monthly"])
        #expect(try await client.entitlements() == entitlements)
    }

    @Test func theListFollowsPagesAndIsAnsweredFrom304sAfterwards() async throws {
        let world = try ClientWorld()
        let client = world.client(pageSize: 2)
        try await client.continueAnonymously()
        _ = try await client.postSignedTransactions(try world.signedTransactions())
        let issues = try await client.issues(in: "monthly")
        #expect(issues.map(\.issueId) == ["2026-03", "2026-02", "2026-01"])
        #expect(issues.allSatisfy { $0.entitled })
        #expect(issues.allSatisfy { !$0.reasons.isEmpty && !$0.reasons.contains { if case .unrecognized = $0 { true } else { false } } })
        let lists = { world.transport.exchanges.filter { $0.request.url.path.hasSuffix("/issues") } }
        #expect(lists().map(\.status) == [200, 200], "two pages")
        #expect(lists().last?.request.url.query?.contains("after=") == true)

        #expect(try await client.issues(in: "monthly") == issues)
        #expect(lists().map(\.status) == [200, 200, 304, 304], "both pages answered from the kept copies")
    }

    @Test func aLongListArrivesGzipped() async throws {
        let world = try ClientWorld()
        for month in 4...9 {
            let body = #"{"id":"2025-0\#(month)","title":"A back issue of 2025","publishedAt":"2025-0\#(month)-15T00:00:00Z","free":false,"assets":[{"path":"/content/monthly/2025-0\#(month)/issue.pdf","bytes":10,"sha256":"\#(String(repeating: "c", count: 64))"}]}"#
            #expect(try world.flow.call("POST", "/v1/publications/monthly/issues", body: Data(body.utf8)).status == 201)
        }
        let client = world.client()
        try await client.continueAnonymously()
        let issues = try await client.issues(in: "monthly")
        #expect(issues.count == 9)
        let list = try #require(world.transport.exchanges.last)
        #expect(list.headers["vary"]?.lowercased().contains("accept-encoding") == true)
        #expect(list.headers["content-encoding"] == "gzip", "\(list.headers)")
    }

    @Test func anIssueDownloadsThroughTheCDNAndAnExpiredTokenIsRenewedOnce() async throws {
        let world = try ClientWorld()
        let client = world.client()
        try await client.continueAnonymously()
        _ = try await client.postSignedTransactions(try world.signedTransactions())
        let access = try await client.downloadAccess(publication: "monthly", issue: "2026-03")
        #expect(access.urls.count == 1)
        #expect(access.urls[0].path == "/content/monthly/2026-03/issue.pdf")

        // The first link expires before the CDN sees it: the gateway's clock, which the edge
        // follows, moves past the token's lifetime once.
        let clock = world.flow.clock
        let moved = OnceFlag()
        world.transport.onDownload {
            if moved.firstTime() { clock.advance(seconds: 400) }
        }
        let folder = world.downloads()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try await client.download(publication: "monthly", issue: "2026-03", into: folder)
        #expect(try Data(contentsOf: files[0]) == Data("the 2026-03 issue".utf8))
        let cdn = world.transport.exchanges.filter { $0.request.url.port == world.edge.port }.map(\.status)
        #expect(cdn == [401, 200])
        #expect(world.transport.exchanges.filter { $0.request.url.path.hasSuffix("/token") }.count == 3)
    }

    @Test func aLinkRefusedAgainAfterItsRenewalIsThrown() async throws {
        let world = try ClientWorld()
        let client = world.client()
        try await client.continueAnonymously()
        _ = try await client.postSignedTransactions(try world.signedTransactions())
        let clock = world.flow.clock
        world.transport.onDownload { clock.advance(seconds: 400) }
        let folder = world.downloads()
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = await #expect(throws: IssueGatewayError.self) {
            try await client.download(publication: "monthly", issue: "2026-02", into: folder)
        }
        #expect(error?.code == .downloadRefused)
        #expect(error?.status == 401)
        #expect(world.transport.exchanges.filter { $0.request.url.path.hasSuffix("/token") }.count == 2)
    }

    @Test func notEntitledArrivesWithItsReason() async throws {
        let world = try ClientWorld()
        let client = world.client()
        try await client.continueAnonymously()
        let error = await #expect(throws: IssueGatewayError.self) {
            try await client.downloadAccess(publication: "monthly", issue: "2026-03")
        }
        #expect(error?.code == .notEntitled)
        #expect(error?.reason == "noPurchase")
    }

    @Test func retryAfterIsWaitedOutForAnIdempotentCallOnly() async throws {
        let world = try ClientWorld()
        let client = world.client()
        try await client.continueAnonymously()
        let apnsToken = Data(repeating: 0xab, count: 32)
        try await client.registerForPushes(apnsToken: apnsToken)

        // DELETE is idempotent: the 503's Retry-After (1 s) is waited out, then it succeeds.
        world.store.failNext(1)
        let started = Date()
        try await client.unregisterForPushes(apnsToken: apnsToken)
        #expect(Date().timeIntervalSince(started) >= 1)
        #expect(world.store.failed == 1)
        let deletes = world.transport.exchanges.filter { $0.request.method == "DELETE" }.map(\.status)
        #expect(deletes == [503, 200])

        // POST is not: the error reaches the caller with the wait, and nothing is sent again.
        world.store.failNext(1)
        let error = await #expect(throws: IssueGatewayError.self) { try await client.registerForPushes(apnsToken: apnsToken) }
        #expect(error?.code == .storageBusy)
        #expect(error?.retryAfter == 1)
        #expect(world.store.failed == 2)
        #expect(world.transport.exchanges.filter { $0.request.method == "POST" && $0.request.url.path.hasSuffix("/devices") }
            .map(\.status) == [201, 503])
    }
}
