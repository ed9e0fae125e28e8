import AppStoreSimulator
import Foundation
@testable import GatewayConfiguration
import Testing
import GatewayTesting

/// The history's sources over the real App Store paths (simulator, sockets): a V2 notification's
/// facts are signed payloads, yet the history names the notification.
@Suite struct HistoryFlowTests {
    func events(_ flow: AppStoreFlow, _ reader: AppStoreFlow.Reader) throws -> [[String: Any]] {
        let answer = try flow.call("GET", "/v1/accounts/\(reader.id)/history", bearer: reader.token)
        #expect(answer.status == 200)
        return answer.json["events"] as? [[String: Any]] ?? []
    }

    @Test func aV2RefundIsRecordedAsANotificationV2AndItsRepeatAsNothing() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.subscribedReader()
        let before = try events(flow, reader).count
        try flow.simulator.refund(transactionId: "10002", in: FlowFixtures.production, at: FlowFixtures.at("2026-03-18T00:00:00Z"))
        let body = try flow.simulator.notificationV2(FlowFixtures.production, type: "REFUND", transactionId: "10002")
        #expect(try flow.notify(body).status == 200)
        #expect(try flow.notify(body).status == 200)
        let added = Array(try events(flow, reader).dropFirst(before))
        #expect(added.map { $0["kind"] as? String } == ["refund"])
        #expect(added.first?["source"] as? String == "notificationV2")
        #expect(added.first?["transactionId"] as? String == "10002")
    }
}

/// A change the status poller finds is recorded with the source `poll`.
@Suite struct HistoryPollFlowTests {
    @Test func aRenewalFoundByThePollerIsRecordedAsAPoll() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.subscribedReader()
        try flow.simulator.addTransaction(FlowFixtures.renewal, to: FlowFixtures.production)
        flow.clock.set(FlowFixtures.at("2026-04-09T12:00:00Z"))
        #expect(try #require(flow.runtime.poller).pass() == 0)
        let answer = try flow.call("GET", "/v1/accounts/\(reader.id)/history", bearer: reader.token)
        let last = (answer.json["events"] as? [[String: Any]])?.last
        #expect(last?["kind"] as? String == "transactionSeen" && last?["transactionId"] as? String == "10003")
        #expect(last?["source"] as? String == "poll" && last?["at"] as? String == "2026-04-09T12:00:00.000Z")
    }
}
