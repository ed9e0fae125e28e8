import Synchronization
import Testing
import Lifecycle

/// A service whose loop pauses for an hour between rounds: only a stop that wakes it ends it.
private final class Ticker: ThreadBackedService {
    let serviceThread = ServiceThread(name: "ticker")
    let rounds = Atomic<Int>(0)
    let returned = Atomic<Bool>(false)

    func run(until stop: StopToken) {
        defer { returned.store(true, ordering: .releasing) }
        repeat { rounds.add(1, ordering: .relaxed) } while !stop.pause(for: .seconds(3600))
    }
}

@Suite struct ServiceThreadTests {
    /// Far longer than a stop takes, far shorter than the loop's pause.
    static let joinBound: Duration = .seconds(10)

    @Test func startingTwiceThrows() throws {
        let ticker = Ticker()
        try ticker.start()
        #expect(throws: ServiceError.cannotStart(.running)) { try ticker.start() }
        ticker.stop()
        #expect(ticker.serviceThread.join(timeout: Self.joinBound))
        #expect(throws: ServiceError.cannotStart(.stopped)) { try ticker.start() }
    }

    @Test func stopBeforeStartMeansNeverStart() {
        let ticker = Ticker()
        ticker.stop()
        #expect(ticker.state == .stopped)
        ticker.join()
        #expect(throws: ServiceError.cannotStart(.stopped)) { try ticker.start() }
        let rounds = ticker.rounds.load(ordering: .relaxed)
        #expect(rounds == 0)
    }

    @Test func stopWakesThePauseAndJoinWaitsForTheLoop() throws {
        let ticker = Ticker()
        try ticker.start()
        #expect(ticker.state == .running)
        ticker.stop()
        #expect(ticker.serviceThread.join(timeout: Self.joinBound), "stop did not end the loop")
        #expect(ticker.state == .stopped)
        let returned = ticker.returned.load(ordering: .acquiring)
        #expect(returned)
    }

    @Test func stopIsIdempotent() throws {
        let ticker = Ticker()
        try ticker.start()
        ticker.stop()
        ticker.stop()
        #expect(ticker.serviceThread.join(timeout: Self.joinBound))
        ticker.join()
        #expect(ticker.state == .stopped)
    }

    @Test func theStateMachineOnlyStartsFromCreated() throws {
        var machine = ServiceStateMachine()
        try machine.start()
        #expect(machine.isActive)
        machine.stop()
        #expect(machine.state == .stopping)
        #expect(throws: ServiceError.cannotStart(.stopping)) { try machine.start() }
        machine.finish()
        #expect(!machine.isActive)
    }
}
