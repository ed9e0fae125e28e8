import Entitle
import Testing

/// E4: account binding, decided the same way by every store.
@Suite struct OwnershipRuleTests {
    typealias Rule = OwnershipRule

    @Test func aFirstAccountTakesAnUnboundSubscription() {
        #expect(Rule.decide(current: nil, tokenAccount: nil, requester: "a", policy: .keep) == .bind(owner: "a", previous: nil))
        #expect(Rule.decide(current: nil, tokenAccount: nil, requester: nil, policy: .transfer) == .unchanged(owner: nil))
    }

    @Test func aSecondAccountTakesItUnderTransferAndIsRefusedUnderKeep() {
        #expect(Rule.decide(current: "a", tokenAccount: nil, requester: "b", policy: .transfer) == .bind(owner: "b", previous: "a"))
        #expect(Rule.decide(current: "a", tokenAccount: nil, requester: "b", policy: .keep) == .refuse(owner: "a"))
        #expect(Rule.decide(current: "a", tokenAccount: nil, requester: "a", policy: .keep) == .unchanged(owner: "a"))
    }

    @Test func anAppAccountTokenWinsOverTheRequesterAndThePolicy() {
        #expect(Rule.decide(current: "a", tokenAccount: "c", requester: "b", policy: .keep) == .bind(owner: "c", previous: "a"))
        #expect(Rule.decide(current: "c", tokenAccount: "c", requester: "b", policy: .transfer) == .unchanged(owner: "c"))
        #expect(Rule.decide(current: nil, tokenAccount: "c", requester: nil, policy: .keep) == .bind(owner: "c", previous: nil))
    }

    @Test func aNotificationLeavesTheOwnerAsItIs() {
        #expect(Rule.decide(current: "a", tokenAccount: nil, requester: nil, policy: .keep) == .unchanged(owner: "a"))
    }
}
