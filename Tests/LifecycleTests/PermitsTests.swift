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
        let thread = JoinableThread(name: "permit-waiter") { woke.set(permits.take(timeout: .seconds(10))) }
        Thread.sleep(forTimeInterval: 0.05)
        #expect(!woke.isSet)
        permits.giveBack()
        thread.join()
        #expect(woke.isSet)
    }

    /// Each permit given back wakes one waiter rather than all: none may be lost, so as many
    /// permits as waiters let every waiter through, timed or not.
    @Test func asManyPermitsGivenBackAsWaitersLetEveryWaiterThrough() {
        let permits = Permits(0)
        let through = Atomic<Int>(0)
        let waiters = (0..<8).map { n in
            JoinableThread(name: "permit-waiter-\(n)") {
                let took = n.isMultiple(of: 2) ? permits.take() : permits.take(timeout: .seconds(30))
                if took { through.wrappingAdd(1, ordering: .relaxed) }
            }
        }
        for _ in waiters { permits.giveBack() }
        for waiter in waiters { waiter.join() }
        #expect(through.load(ordering: .relaxed) == 8)
        #expect(!permits.take(timeout: .zero))
    }
}

private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set(_ newValue: Bool) { value.store(newValue, ordering: .releasing) }
}
