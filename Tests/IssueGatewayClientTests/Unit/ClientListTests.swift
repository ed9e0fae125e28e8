import Foundation
import IssueGatewayClient
import Testing

/// Issue lists (http-api.md, reader lists): entity tags kept and a 304 answered from the kept
/// copy, pages followed, reasons kept even when unknown.
@Suite struct ClientListTests {
    @Test func aListIsAskedForWithItsEntityTagAndA304AnswersFromTheKeptCopy() async throws {
        let transport = ScriptedTransport()
        let (client, _) = Fixture.client(transport)
        transport.answer(200, Fixture.page(["2026-03", "2026-02"]), headers: ["ETag": #""v1""#])
        let first = try await client.issues(in: "monthly")
        let request = try #require(transport.requests.last)
        #expect(request.method == "GET")
        #expect(request.url.absoluteString == "https://gateway.test/v1/accounts/acc-1/issues?publication=monthly&limit=100")
        #expect(request.header("If-None-Match") == nil)

        transport.answer(304, headers: ["ETag": #""v1""#])
        let second = try await client.issues(in: "monthly")
        #expect(transport.requests.last?.header("If-None-Match") == #""v1""#)
        #expect(second == first)
        #expect(second.map(\.issueId) == ["2026-03", "2026-02"])

        transport.answer(200, Fixture.page(["2026-04", "2026-03", "2026-02"]), headers: ["ETag": #""v2""#])
        #expect(try await client.issues(in: "monthly").count == 3)
        transport.answer(304)
        #expect(try await client.issues(in: "monthly").count == 3)
        #expect(transport.requests.last?.header("If-None-Match") == #""v2""#)
    }

    @Test func everyPageIsFollowedWithItsCursorAndEachPageKeepsItsOwnTag() async throws {
        let transport = ScriptedTransport()
        let (client, _) = Fixture.client(transport, pageSize: 2)
        transport.answer(200, Fixture.page(["2026-03", "2026-02"], next: "cur-1"), headers: ["ETag": #""p1""#])
        transport.answer(200, Fixture.page(["2026-01"]), headers: ["ETag": #""p2""#])
        let issues = try await client.issues(in: "monthly", entitledOnly: true)
        #expect(issues.map(\.issueId) == ["2026-03", "2026-02", "2026-01"])
        #expect(transport.requests.map(\.url.query) == ["publication=monthly&entitled=true&limit=2",
                                                         "publication=monthly&entitled=true&limit=2&after=cur-1"])
        transport.answer(304)
        transport.answer(304)
        #expect(try await client.issues(in: "monthly", entitledOnly: true) == issues)
        #expect(transport.requests.suffix(2).map { $0.header("If-None-Match") } == [#""p1""#, #""p2""#])
    }

    @Test func aReasonOrStateThisClientDoesNotKnowIsKept() async throws {
        let transport = ScriptedTransport()
        let (client, _) = Fixture.client(transport)
        transport.answer(200, #"{"issues":[\#(Fixture.issue("2026-03", reasons: ["granted", "boughtOnTheMoon"])),\#(Fixture.issue("2026-02", reasons: ["refunded"], entitled: false))]}"#)
        let issues = try await client.issues(in: "monthly")
        #expect(issues[0].reasons == [.granted, .unrecognized("boughtOnTheMoon")])
        #expect(issues[0].reasons[1].rawValue == "boughtOnTheMoon")
        #expect(issues[1].reasons == [.refunded])
        #expect(!issues[1].entitled)
        #expect(IssueReason(rawValue: "institution") == .institution)

        transport.answer(200, Fixture.entitlements.replacingOccurrences(of: #""state":"active""#, with: #""state":"onTheMoon""#))
        #expect(try await client.entitlements().subscriptions.first?.state == .unrecognized("onTheMoon"))
        transport.answer(418, #"{"error":{"code":"teapot_busy","message":"brewing","pot":2}}"#)
        let error = await #expect(throws: IssueGatewayError.self) { try await client.entitlements() }
        #expect(error?.code == .unrecognized("teapot_busy"))
        #expect(error?.details["pot"] == .number(2))
        #expect(error?.status == 418)
    }

    @Test func notEntitledCarriesItsReason() async throws {
        let transport = ScriptedTransport()
        let (client, _) = Fixture.client(transport)
        transport.answer(403, #"{"error":{"code":"not_entitled","message":"not entitled","reason":"notSubscribedWhenPublished"}}"#)
        let error = await #expect(throws: IssueGatewayError.self) {
            try await client.downloadAccess(publication: "monthly", issue: "2026-01")
        }
        #expect(error?.code == .notEntitled)
        #expect(error?.reason.map(IssueReason.init(rawValue:)) == .notSubscribedWhenPublished)
    }
}
