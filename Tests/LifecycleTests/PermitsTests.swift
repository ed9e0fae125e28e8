import Foundation
import Synchronization
import Testing
import Lifecycle

@Suite struct PermitsTests {
    @Test func permitsRunOutAndATimedTakeGivesUp() {
        let permits = Permits(2)
        #expect(permits.take(timeout: .zero))
        #expect(permits.take(timeout: .zero))
        let started = ContinuousClock.now
        #expect(!permits.take(timeout: .milliseconds(50)))
        #expect(ContinuousClock.now - started >= .milliseconds(50))
        permits.giveBack()
        #expect(permits.take(timeout: .zero))
    }

    @Test func aPermitGivenBackWakesAWaiter() {
        let permits = Permits(1)
        #expect(permits.take())
        let woke = Flag()
        let thread = Thread { woke.set(permits.take(timeout: .seconds(10))) }
        thread.start()
        Thread.sleep(forTimeInterval: 0.05)
        #expect(!woke.isSet)
        permits.giveBack()
        let deadline = ContinuousClock.now + .seconds(10)
        while !woke.isSet, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        #expect(woke.isSet)
    }
}

@Suite struct ConditionTests {
    @Test func aBroadcastBeforeTheWaitIsNotLost() {
        let condition = Condition()
        let generation = condition.generation
        condition.broadcast()
        #expect(condition.wait(after: generation, timeout: .seconds(10)))
    }

    @Test func aWaitWithoutBroadcastTimesOut() {
        let condition = Condition()
        let started = ContinuousClock.now
        #expect(!condition.wait(after: condition.generation, timeout: .milliseconds(30)))
        #expect(ContinuousClock.now - started >= .milliseconds(30))
    }
}

private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set(_ newValue: Bool) { value.store(newValue, ordering: .releasing) }
}
