import Testing
@testable import HTTPServer

/// The connection's protocol decisions without sockets: each table is a sequence of events and
/// the action the state machine answers with, plus what reached the output, in order.
@Suite struct ConnectionStateMachineTests {
    typealias Machine = ConnectionStateMachine<String>

    enum Event {
        /// A complete request named `name`.
        case received(String, keepAlive: Bool = true, moreInput: Bool = false)
        /// A request that could not be read, answered with `name`.
        case malformed(String)
        /// The answer for the request named so is ready.
        case answered(String)
        case expectContinue
        case wrote(pendingOutput: Int = 0, inputIdle: Bool = true, heldInput: Bool = false)
        case peerClosed(pendingOutput: Int = 0)
        case shutdown(pendingOutput: Int = 0, inputIdle: Bool = true)
        case bytesRead(at: Int64)
        case bodyStarted(at: Int64)
        /// The client took output bytes.
        case sent(at: Int64)
        case tick(at: Int64, input: Machine.InputProgress = .idle, pendingOutput: Int = 0)
    }

    static let timeouts = Machine.Timeouts(idle: 60, headerRead: 10, bodyRead: 30, write: 30, linger: 2)

    /// Applies events to a machine and describes what it answered.
    struct Driver {
        var machine = Machine(now: 0, maxPipelinedRequests: 3, maxPendingOutputBytes: 1000)
        var sequences: [String: UInt64] = [:]
        /// Answers in the order they reached the output.
        var output: [String] = []

        mutating func apply(_ event: Event) -> String {
            switch event {
            case .received(let name, let keepAlive, let moreInput):
                return describe(machine.requestReceived(name, keepAlive: keepAlive, moreInput: moreInput, now: 0), name)
            case .malformed(let name):
                return describe(machine.failed(name), name)
            case .answered(let name):
                guard let sequence = sequences[name] else { return "unknown" }
                switch machine.responseReady(sequence: sequence) {
                case .drop:
                    return "drop"
                case .hold:
                    machine.hold(sequence: sequence, serialized: Array((machine.pending(sequence) ?? name).utf8))
                    return "hold"
                case .writeNow:
                    output.append(name)
                    while let held = machine.takeHeldResponse() { output.append(String(decoding: held, as: UTF8.self)) }
                    return "write"
                }
            case .expectContinue:
                return machine.continueExpected() ? "100 Continue" : "no 100"
            case .wrote(let pendingOutput, let inputIdle, let heldInput):
                return "\(machine.wrote(pendingOutput: pendingOutput, inputIdle: inputIdle, heldInput: heldInput, now: 100))"
            case .peerClosed(let pendingOutput):
                return "\(machine.peerClosedInput(pendingOutput: pendingOutput))"
            case .shutdown(let pendingOutput, let inputIdle):
                return "\(machine.shutdown(pendingOutput: pendingOutput, inputIdle: inputIdle) { $0 += "+close" })"
            case .bytesRead(let now):
                machine.bytesRead(now: now, startsRequest: true)
                return "ok"
            case .bodyStarted(let now):
                machine.bodyStarted(now: now)
                return "ok"
            case .sent(let now):
                machine.wroteBytes(now: now)
                return "ok"
            case .tick(let now, let input, let pendingOutput):
                return "\(machine.tick(now: now, input: input, pendingOutput: pendingOutput, timeouts: ConnectionStateMachineTests.timeouts))"
            }
        }

        private mutating func describe(_ action: Machine.RequestAction, _ name: String) -> String {
            switch action {
            case .dispatch(let sequence):
                sequences[name] = sequence
                return "dispatch \(sequence)"
            case .reject(let sequence):
                sequences[name] = sequence
                return "reject \(sequence)"
            }
        }
    }

    /// Runs the table; every step's action must match.
    private func run(_ table: [(Event, String)], _ driver: inout Driver, sourceLocation: SourceLocation = #_sourceLocation) {
        for (index, (event, expected)) in table.enumerated() {
            let actual = driver.apply(event)
            #expect(actual == expected, "step \(index): \(event)", sourceLocation: sourceLocation)
        }
    }

    // RFC 9112 §9.3.2: answers leave in request order, whatever order handlers finish in.
    @Test func pipelinedAnswersLeaveInRequestOrder() {
        var driver = Driver()
        run([
            (.received("a"), "dispatch 0"),
            (.received("b"), "dispatch 1"),
            (.received("c"), "dispatch 2"),
            (.answered("c"), "hold"),
            (.answered("a"), "write"),
            (.answered("b"), "write"),
            (.answered("b"), "drop"),
            (.wrote(), "wait"),
        ], &driver)
        #expect(driver.output == ["a", "b", "c"])
        #expect(driver.machine.state == .open)
    }

    // RFC 9110 §10.1.1: the interim answer may not overtake an earlier final one.
    @Test func expectContinueOnlyWhenNoAnswerIsOwed() {
        var driver = Driver()
        run([
            (.expectContinue, "100 Continue"),
            (.received("a"), "dispatch 0"),
            (.expectContinue, "no 100"),
            (.answered("a"), "write"),
            (.expectContinue, "100 Continue"),
        ], &driver)
    }

    // RFC 9112 §11.2: after a framing error nothing more is read; the error is answered after the
    // good requests before it, then the connection lingers (§9.6).
    @Test func malformedRequestAfterGoodOnesIsAnsweredInOrderThenLingers() {
        var driver = Driver()
        run([
            (.received("a"), "dispatch 0"),
            (.received("b"), "dispatch 1"),
            (.malformed("400"), "reject 2"),
            (.answered("400"), "hold"),
            (.answered("b"), "hold"),
            (.wrote(), "wait"),
            (.answered("a"), "write"),
            (.wrote(pendingOutput: 10), "wait"),
            (.wrote(), "linger"),
            (.tick(at: 101), "none"),
            (.tick(at: 103), "close"),
        ], &driver)
        #expect(driver.output == ["a", "b", "400"])
        #expect(driver.machine.state == .closed)
    }

    @Test func connectionCloseStopsReadingAndLingersAfterTheAnswer() {
        var driver = Driver()
        run([
            (.received("a", keepAlive: false), "dispatch 0"),
        ], &driver)
        #expect(!driver.machine.canTakeRequest(pendingOutput: 0))
        #expect(!driver.machine.wantsInput(pendingOutput: 0))
        run([
            (.answered("a"), "write"),
            (.wrote(), "linger"),
        ], &driver)
        #expect(driver.machine.wantsInput(pendingOutput: 0))  // to see the client's end while lingering
        run([(.peerClosed(), "close")], &driver)
    }

    // RFC 9112 §9.6: a client that shut its side still gets its answers, then the connection closes
    // without lingering (there is nothing left to read).
    @Test func peerEndOfInputFinishesOwedAnswersThenCloses() {
        var driver = Driver()
        run([
            (.received("a"), "dispatch 0"),
            (.peerClosed(), "wait"),
            (.answered("a"), "write"),
            (.wrote(), "close"),
        ], &driver)
        var idle = Driver()
        run([(.peerClosed(), "close")], &idle)
    }

    @Test func pipeliningLimitHoldsInputUntilAnswersDrain() {
        var driver = Driver()
        run([
            (.received("a"), "dispatch 0"),
            (.received("b"), "dispatch 1"),
            (.received("c"), "dispatch 2"),
        ], &driver)
        #expect(!driver.machine.canTakeRequest(pendingOutput: 0))
        run([
            (.answered("a"), "write"),
            (.wrote(heldInput: true), "read"),
        ], &driver)
        #expect(!driver.machine.canTakeRequest(pendingOutput: 1000))  // the output limit
    }

    @Test func shutdownClosesIdleConnectionsAndDrainsBusyOnes() {
        var idle = Driver()
        run([(.shutdown(), "close")], &idle)

        var busy = Driver()
        run([
            (.received("a"), "dispatch 0"),
            (.received("b"), "dispatch 1"),
            (.answered("a"), "write"),
            (.shutdown(), "wait"),
            (.answered("b"), "write"),
            (.wrote(), "linger"),
        ], &busy)
        #expect(busy.output == ["a", "b"])
        #expect(busy.machine.state == .lingering(since: 100))

        var reading = Driver()
        run([
            (.shutdown(inputIdle: false), "wait"),
            (.received("a"), "dispatch 0"),
        ], &reading)
        #expect(!reading.machine.canTakeRequest(pendingOutput: 0))
    }

    /// RFC 9112 §9.6: a client discards what follows an answer that says close, so only the last
    /// owed answer says it.
    @Test func shutdownMarksTheLastOwedAnswerAsClosing() {
        var driver = Driver()
        run([
            (.received("a"), "dispatch 0"),
            (.received("b"), "dispatch 1"),
            (.shutdown(), "wait"),
        ], &driver)
        #expect(driver.machine.pending(0) == "a")
        #expect(driver.machine.pending(1) == "b+close")

        // The last answer was ready before the shutdown: none is marked, and the connection still
        // closes once both are written.
        var ready = Driver()
        run([
            (.received("a"), "dispatch 0"),
            (.received("b"), "dispatch 1"),
            (.answered("b"), "hold"),
            (.shutdown(), "wait"),
            (.answered("a"), "write"),
            (.wrote(), "linger"),
        ], &ready)
        #expect(ready.output == ["a", "b"])
    }

    @Test func timeoutsFollowWhatTheConnectionIsDoing() {
        var idle = Driver()
        run([(.tick(at: 60), "none"), (.tick(at: 61), "close")], &idle)

        var slowHead = Driver()
        run([
            (.bytesRead(at: 5), "ok"),
            (.tick(at: 15, input: .head), "none"),
            (.tick(at: 16, input: .head), "requestTimeout"),
        ], &slowHead)

        var slowBody = Driver()
        run([
            (.bodyStarted(at: 5), "ok"),
            (.tick(at: 35, input: .body), "none"),
            (.tick(at: 36, input: .body), "requestTimeout"),
        ], &slowBody)

        var working = Driver()
        run([
            (.received("a"), "dispatch 0"),
            (.tick(at: 1000), "none"),  // a handler is working on it: no timeout applies
        ], &working)

        var stalledReader = Driver()
        run([
            (.received("a"), "dispatch 0"),
            (.answered("a"), "write"),
            (.sent(at: 100), "ok"),
            (.wrote(pendingOutput: 10), "wait"),
            (.tick(at: 130, pendingOutput: 10), "none"),
            (.tick(at: 131, pendingOutput: 10), "close"),
        ], &stalledReader)
    }
}
