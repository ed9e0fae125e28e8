import Foundation
import Glibc
import Synchronization
import Testing
import Lifecycle

@Suite struct ConditionTests {
    /// Far longer than a wake-up takes.
    static let bound: Duration = .seconds(10)

    @Test func aWaiterWakesWhenAnotherThreadMakesTheStateReady() {
        let value = Condition(0)
        let setter = JoinableThread(name: "setter") {
            for _ in 0..<3 {
                value.withLock { $0 += 1 }
                value.signal()
            }
        }
        let clock = ContinuousClock()
        let start = clock.now
        let seen = value.withLock(when: { $0 == 3 }, timeout: Self.bound) { $0 }
        setter.join()
        #expect(seen == 3)
        // A lost wake-up shows as a wait that ran out: the state is ready by then all the same.
        #expect(clock.now - start < Self.bound)
    }

    @Test func aTimedWaitGivesUpAfterItsTimeoutWithTheStateUnready() {
        let flag = Condition(false)
        let clock = ContinuousClock()
        let start = clock.now
        let ready = flag.withLock(when: { $0 }, timeout: .milliseconds(50)) { $0 }
        #expect(!ready)
        #expect(clock.now - start >= .milliseconds(50))
    }

    @Test func anEndlessTimeoutStillWakesWhenReady() {
        let flag = Condition(false)
        let setter = JoinableThread(name: "setter") {
            flag.withLock { $0 = true }
            flag.signal()
        }
        #expect(flag.withLock(when: { $0 }, timeout: .seconds(Int64.max)) { $0 })
        setter.join()
    }

    @Test func aStateAlreadyReadyDoesNotWait() {
        let flag = Condition(true)
        #expect(flag.withLock(when: { $0 }) { $0 })
    }

    @Test func aWaiterOnAChannelIsWokenByThatChannelAlone() {
        let turn = Condition(0, channels: 3)
        let clock = ContinuousClock()
        let start = clock.now
        // Waiting for its number on its own channel: only a signal there ends the wait in time.
        let waiter = JoinableThread(name: "waiter") {
            let seen = turn.withLock(when: { $0 == 2 }, timeout: Self.bound, channel: 2) { $0 }
            #expect(seen == 2)
        }
        turn.withLock { $0 = 2 }
        turn.broadcast(channel: 0)
        turn.signal(channel: 1)
        turn.signal(channel: 5)  // channels count modulo: 5 is 2
        waiter.join()
        #expect(clock.now - start < Self.bound)
    }

    @Test func aBroadcastWakesEveryWaiter() {
        let gate = Condition(false)
        let woken = Atomic<Int>(0)
        let waiters = (0..<4).map { index in
            JoinableThread(name: "waiter-\(index)") {
                gate.withLock(when: { $0 }) { _ in }
                woken.add(1, ordering: .relaxed)
            }
        }
        gate.withLock { $0 = true }
        gate.broadcast()
        waiters.forEach { $0.join() }
        #expect(woken.load(ordering: .relaxed) == 4)
    }
}

@Suite struct JoinableThreadTests {
    @Test func joinReturnsOnceTheBodyHasReturnedAndMayBeRepeated() {
        let done = Atomic<Bool>(false)
        let thread = JoinableThread(name: "worker") {
            usleep(20_000)
            done.store(true, ordering: .releasing)
        }
        thread.join()
        let returned = done.load(ordering: .acquiring)
        #expect(returned)
        thread.join()
    }

    @Test func theThreadCarriesTheFirst15BytesOfItsName() {
        let name = Mutex("")
        JoinableThread(name: "a-rather-long-thread-name") {
            // Linux shows a thread's name in /proc (proc(5), /proc/thread-self/comm).
            let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            name.withLock { $0 = comm.trimmingCharacters(in: .newlines) }
        }.join()
        #expect(name.withLock { $0 } == "a-rather-long-t")
    }

    @Test func aDetachedThreadStillRuns() {
        let ran = Condition(false)
        JoinableThread(name: "detached") {
            ran.withLock { $0 = true }
            ran.signal()
        }.detach()
        #expect(ran.withLock(when: { $0 }, timeout: ConditionTests.bound) { $0 })
    }
}

@Suite struct StopTokenTests {
    @Test func aPauseEndsAtItsDurationWhenNoStopIsRequested() {
        let token = StopToken()
        #expect(!token.pause(for: .milliseconds(20)))
        #expect(!token.isStopRequested)
    }
}
