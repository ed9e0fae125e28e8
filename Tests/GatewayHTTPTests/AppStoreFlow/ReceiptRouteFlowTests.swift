import Entitle
import Foundation
@testable import GatewayConfiguration
import Testing
import GatewayTesting

/// `POST /v1/accounts/{id}/receipts` against the simulator over HTTP (http-api.md "Receipt
/// errors"; appstore.md's status table; E1, E4).
@Suite struct ReceiptRouteFlowTests {
    @Test func validReceiptAnswersEntitlements() throws {
        let flow = try AppStoreFlow()
        let (reader, answer) = try flow.newReader(sending: FlowFixtures.production)
        #expect(answer.status == 200)
        #expect(answer.subscriptionIds == ["10000"])
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
        #expect(flow.simulator.requests.map(\.status) == [0])
    }

    @Test func sandboxReceiptFollows21007ToTheSandbox() throws {
        let flow = try AppStoreFlow()
        let (_, answer) = try flow.newReader(sending: FlowFixtures.sandbox)
        #expect(answer.status == 200)
        let subscription = try #require((answer.json["subscriptions"] as? [[String: Any]])?.first)
        #expect(subscription["environment"] as? String == "sandbox")
        #expect(flow.simulator.requests.map(\.endpoint) == [.production, .sandbox])
        #expect(flow.simulator.requests.map(\.status) == [21007, 0])
    }

    @Test func unknownReceiptIs422WithAppStoreStatus() throws {
        let flow = try AppStoreFlow()
        let (reader, answer) = try flow.newReader(sending: FlowFixtures.unknown)
        #expect(answer.status == 422)
        #expect(answer.errorCode == "receipt_rejected")
        #expect(answer.appStoreStatus == 21003)
        #expect(try flow.storedTransactionIds(reader).isEmpty)
    }

    @Test func intermittent21005IsRetriedThenTaken() throws {
        let flow = try AppStoreFlow()
        let (_, answer) = try flow.newReader(sending: FlowFixtures.flaky)
        #expect(answer.status == 200)
        #expect(answer.subscriptionIds == ["30000"])
        #expect(flow.simulator.requests.map(\.status) == [21005, 21005, 0])
    }

    @Test func persistent21005Is503AndStoresNothing() throws {
        let flow = try AppStoreFlow()
        let (reader, answer) = try flow.newReader(sending: FlowFixtures.down)
        #expect(answer.status == 503)
        #expect(answer.errorCode == "app_store_unavailable")
        #expect(flow.simulator.requests.map(\.status) == [21005, 21005, 21005])
        #expect(try flow.storedTransactionIds(reader).isEmpty)
    }

    @Test func unreachableAppStoreIs503() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.newReader()
        flow.apple.stop()
        let answer = try flow.sendReceipt(FlowFixtures.production, for: reader)
        #expect(answer.status == 503)
        #expect(answer.errorCode == "app_store_unavailable")
        #expect(try flow.storedTransactionIds(reader).isEmpty)
    }

    @Test func wrongSharedSecretIs21004And503() throws {
        let flow = try AppStoreFlow(gatewaySecret: "not-the-apps-secret")
        let (reader, answer) = try flow.newReader(sending: FlowFixtures.production)
        #expect(answer.status == 503)
        #expect(answer.errorCode == "app_store_unavailable")
        #expect(flow.simulator.requests.map(\.status) == [21004])
        #expect(try flow.storedTransactionIds(reader).isEmpty)
    }

    @Test(arguments: ["", "not base64!", "%%%%"])
    func receiptThatIsNotBase64Is400(_ receiptData: String) throws {
        let flow = try AppStoreFlow()
        let (_, answer) = try flow.newReader(sending: receiptData)
        #expect(answer.status == 400)
        #expect(answer.errorCode == "bad_request")
        #expect(flow.simulator.requests.isEmpty)
    }

    @Test func aTooLargeReceiptIs400AndATooLargeBody413() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.newReader()
        let limits = APILimits.standard
        // Past the JSON parser's own 1 MiB default but within the receipt limit: Apple is asked.
        let large = try flow.sendReceipt(String(repeating: "QUJD", count: 2 << 18), for: reader)
        #expect(large.status == 422 && large.text.contains("21003"))
        #expect(flow.simulator.requests.count == 1)
        let long = try flow.sendReceipt(String(repeating: "QUJD", count: limits.receiptDataBytes / 4 + 1), for: reader)
        #expect(long.status == 400)
        #expect(long.errorCode == "bad_request")
        let huge = try flow.sendReceipt(String(repeating: "QUJD", count: limits.receiptBodyBytes / 4 + 1), for: reader)
        #expect(huge.status == 413)
        #expect(flow.simulator.requests.count == 1, "neither the long receipt nor the huge body reached Apple")
    }

    @Test func sameReceiptTwiceChangesNothing() throws {
        let flow = try AppStoreFlow()
        let (reader, first) = try flow.newReader(sending: FlowFixtures.production)
        let stored = try flow.storedTransactionIds(reader)
        let second = try flow.sendReceipt(FlowFixtures.production, for: reader)
        #expect(first.status == 200 && second.status == 200)
        #expect(first.text == second.text)
        #expect(stored == ["10000", "10001", "10002"])
        #expect(try flow.storedTransactionIds(reader) == stored)
    }

    @Test func transferPolicyMovesTheSubscriptionToTheNewerAccount() throws {
        let flow = try AppStoreFlow(policy: .transfer)
        let first = try flow.subscribedReader()
        let (second, answer) = try flow.newReader(sending: FlowFixtures.production)
        #expect(answer.status == 200)
        #expect(answer.subscriptionIds == ["10000"])
        #expect(try flow.entitledIssues(second) == ["2026-01", "2026-02", "2026-03"])
        #expect(try flow.entitledIssues(first).isEmpty)
        #expect(try flow.subscriptions(first).isEmpty)
    }

    @Test func keepPolicyRefusesWith409AndChangesNothing() throws {
        let flow = try AppStoreFlow(policy: .keep)
        let first = try flow.subscribedReader()
        let (second, answer) = try flow.newReader(sending: FlowFixtures.production)
        #expect(answer.status == 409)
        #expect(answer.errorCode == "owned_by_other_account")
        #expect(try flow.entitledIssues(first) == ["2026-01", "2026-02", "2026-03"])
        #expect(try flow.entitledIssues(second).isEmpty)
        #expect(try flow.storedTransactionIds(second).isEmpty)
    }

    @Test(arguments: [OwnershipPolicy.transfer, .keep])
    func appAccountTokenNamingAnAccountWins(_ policy: OwnershipPolicy) throws {
        let flow = try AppStoreFlow(policy: policy)
        let named = try flow.newReader(appAccountToken: FlowFixtures.appAccountToken)
        let sender = try flow.newReader()
        let answer = try flow.sendReceipt(FlowFixtures.tokenBound, for: sender)
        #expect(answer.status == 200)
        #expect(answer.subscriptionIds.isEmpty)
        #expect(try flow.entitledIssues(named) == ["2026-01", "2026-02", "2026-03"])
        #expect(try flow.entitledIssues(sender).isEmpty)
    }

    @Test func signedTransactionsFromTheSimulatorAreAccepted() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.newReader()
        let signed = try flow.simulator.signedTransactions(FlowFixtures.production)
        let answer = try flow.sendSignedTransactions(signed, for: reader)
        #expect(answer.status == 200)
        #expect(answer.subscriptionIds == ["10000"])
        #expect(try flow.entitledIssues(reader) == ["2026-01", "2026-02", "2026-03"])
        #expect(flow.simulator.requests.isEmpty)
    }

    @Test func tamperedSignedTransactionIs422AndNothingIsStored() throws {
        let flow = try AppStoreFlow()
        let reader = try flow.newReader()
        var signed = try flow.simulator.signedTransactions(FlowFixtures.production)
        signed[1] = SignedDataTampering.swapPayload(of: signed[1], with: signed[0])
        // A verified receipt in the same request must not be stored either.
        let answer = try flow.post("/v1/accounts/\(reader.id)/receipts",
                                   json: ["receiptData": FlowFixtures.production, "signedTransactions": signed], bearer: reader.token)
        #expect(answer.status == 422)
        #expect(answer.errorCode == "receipt_rejected")
        #expect(try flow.storedTransactionIds(reader).isEmpty)
    }
}

/// Forged JWS for refusal tests.
enum SignedDataTampering {
    /// `target`'s header and signature around `donor`'s (validly signed, different) payload.
    static func swapPayload(of target: String, with donor: String) -> String {
        let t = target.split(separator: ".", omittingEmptySubsequences: false)
        let d = donor.split(separator: ".", omittingEmptySubsequences: false)
        return [t[0], d[1], t[2]].joined(separator: ".")
    }

    /// The signature's last base64url character changed.
    static func flipSignature(_ compact: String) -> String {
        var characters = Array(compact)
        let index = characters.count - 2
        characters[index] = characters[index] == "A" ? "B" : "A"
        return String(characters)
    }
}
